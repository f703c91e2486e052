"""`kamishibai start-state P 10 20 30` (no --character) said "every character starts at stamina
10, ..." while a character given a start of their own with --character went on from that one
(the tree showed it). It now names the characters who keep their own start."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main


def _story(tmp_path: Path) -> str:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n"
                    "Character: Yuzu; Motion: wave; Background: day bakery.\n", encoding="utf-8")
    project = str(tmp_path / "story.kamishibai")
    assert main(["import-demo", str(demo), "--project", project]) == 0
    return project


def test_a_start_for_everyone_names_the_characters_who_keep_their_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = _story(tmp_path)
    assert main(["start-state", project, "70", "60", "50", "--character", "Yuzu"]) == 0
    capsys.readouterr()
    assert main(["start-state", project, "10", "20", "30"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "every character starts at stamina 10, social 20, fun 30"
    assert lines[1].startswith("  except Yuzu, who keeps a start of their own"), lines
    assert "kamishibai story" in lines[1] and " root` lists every start" in lines[1]
    assert main(["story", project, "root", "--json"]) == 0  # what it says is what the story holds
    starts = json.loads(capsys.readouterr().out)["start_states"]
    assert starts["everyone"] == {"stamina": 10, "social": 20, "entertainment": 30}
    assert starts["characters"] == {"Yuzu": {"stamina": 70, "social": 60, "entertainment": 50}}

def test_without_starts_of_their_own_it_says_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = _story(tmp_path)
    capsys.readouterr()
    assert main(["start-state", project, "10", "20", "30"]) == 0
    assert capsys.readouterr().out == "every character starts at stamina 10, social 20, fun 30\n"
