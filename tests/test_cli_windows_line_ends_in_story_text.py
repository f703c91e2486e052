"""Narration and shot notes given with Windows line ends (a text pasted from a file saved on
Windows, `$(cat notes.txt)`) were refused: "control character (U+000D, a carriage return)".
They are line breaks: the text is kept as its lines. A carriage return elsewhere (a dialogue
line, one line of text) is still refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main


def _turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    project = tmp_path / "p.kamishibai"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    assert main(["play", str(project), "-i", "Character: Qiqi; Motion: wave; Background: day park.", "--json",
                 "--engine", "sketch", "--setting", "frames=2", "--setting", "width=64", "--setting", "height=48"]) == 0
    node = json.loads(capsys.readouterr().out)["node"]
    return project, node


def test_windows_and_old_mac_line_ends_are_line_breaks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, node = _turn(tmp_path, capsys)
    assert main(["narrate", str(project), node, "The rain stopped.\r\nThe town woke up."]) == 0
    assert main(["story", str(project), node, "--notes", "Wide shot.\rSlow pan.\r\n", "--json"]) == 0
    capsys.readouterr()
    assert main(["story", str(project), node, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["narration"] == "The rain stopped.\nThe town woke up."
    assert shown["shot_notes"] == "Wide shot.\nSlow pan."  # the end trimmed, as any field


def test_a_carriage_return_in_a_dialogue_line_is_still_refused(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    project, node = _turn(tmp_path, capsys)
    assert main(["say", str(project), node, "Hello\r\nthere"]) == 2
    assert "U+000D" in capsys.readouterr().err
