"""`kamishibai say` on a turn with no character and no --speaker stored the line with no
speaker ("(nobody)") without a word. A turn naming no one now shows, and is credited to, the
cast's first member, whose line it is; a turn with a character gets no note either."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main


def test_a_line_on_a_turn_naming_no_one_is_said_by_whom_it_shows(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A turn that names no one at the story's start shows the cast's first member (the
    engines draw them, and the turn's state is theirs): a line without --speaker is theirs,
    with no note (it was stored with no speaker, "(nobody)"). --speaker still gives another."""
    project = tmp_path / "my story.kamishibai"
    assert main(["new", str(project)]) == 0
    assert main(["play", str(project), "The wind blows over the empty town"]) == 0
    capsys.readouterr()
    assert main(["tree", str(project)]) == 0
    turn = capsys.readouterr().out.splitlines()[-1].split()[0]

    assert main(["say", str(project), turn, "Is anyone there?"]) == 0
    captured = capsys.readouterr()
    assert "Qiqi: Is anyone there?" in captured.out and "(nobody)" not in captured.out
    assert "no speaker" not in captured.err

    assert main(["say", str(project), turn, "Only the wind.", "--speaker", "Mio"]) == 0
    capsys.readouterr()
    assert main(["story", str(project), turn, "--json"]) == 0
    dialogue = json.loads(capsys.readouterr().out)["dialogue"]
    assert dialogue == [{"speaker": "Qiqi", "text": "Is anyone there?"}, {"speaker": "Mio", "text": "Only the wind."}]


def test_a_turn_with_a_character_gets_no_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n", encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    capsys.readouterr()
    assert main(["tree", str(project)]) == 0
    turn = capsys.readouterr().out.splitlines()[-1].split()[0]
    assert main(["say", str(project), turn, "Wait for me!"]) == 0
    captured = capsys.readouterr()
    assert "Qiqi: Wait for me!" in captured.out
    assert "no speaker" not in captured.err
