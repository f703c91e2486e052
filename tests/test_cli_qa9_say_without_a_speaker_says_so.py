"""`kamishibai say` on a turn with no character and no --speaker stored the line with no
speaker ("(nobody)") without a word. The line is still kept (a voice nobody on screen owns),
and a note says so, with the commands that give the line a speaker; run as given, they do."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from studio.cli import main


def test_a_line_without_speaker_is_kept_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "my story.kamishibai"
    assert main(["new", str(project)]) == 0
    assert main(["play", str(project), "The wind blows over the empty town"]) == 0
    capsys.readouterr()
    assert main(["tree", str(project)]) == 0
    turn = capsys.readouterr().out.splitlines()[-1].split()[0]

    assert main(["say", str(project), turn, "Is anyone there?"]) == 0
    captured = capsys.readouterr()
    assert "(nobody): Is anyone there?" in captured.out
    note = captured.err
    assert f"turn {turn} has no character, so this line has no speaker" in note, note
    assert "--speaker NAME" in note, note
    clear, again = [shlex.split(command)[1:] for command in note.split("`")[1::2]]
    assert clear == ["story", str(project), turn, "--clear-dialogue"]

    assert main(clear) == 0
    assert main([*[("Is anyone there?" if word == "TEXT" else "Mio" if word == "NAME" else word)
                   for word in again]]) == 0
    assert "has no speaker" not in capsys.readouterr().err
    assert main(["story", str(project), turn, "--json"]) == 0
    dialogue = json.loads(capsys.readouterr().out)["dialogue"]
    assert dialogue == [{"speaker": "Mio", "text": "Is anyone there?"}]


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
