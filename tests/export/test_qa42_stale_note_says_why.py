"""An export's note said of every stale turn that its take was "made before an earlier turn
changed", also of a turn whose own instruction was edited and of a branch whose start state
changed. It now gives each turn's own reason, turns of one reason named together."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.core import CharacterState
from studio.core.commands import EditInstruction, SetStartState
from studio.export import export_branch

from .helpers import Fixture


def _cli_notes(story: Fixture, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path, leaf = story.project.path, story.leaf
    story.project.close()
    assert main(["export", str(path), "--leaf", leaf, "--out", str(out), "-q"]) == 0
    return capsys.readouterr().err


def test_an_edited_instruction_is_named_apart_from_the_turns_after_it(story: Fixture, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    story.project.apply(EditInstruction(story.nodes[1], "Character: Qiqi; Motion: jump; Background: day town."))
    notes = export_branch(story.project, story.leaf, tmp_path / "ep.srt").notes
    stale = [note for note in notes if "stale" in note]
    assert stale == ["2 turns use a stale take, made before its instruction was edited (turn 2) or an earlier turn "
                     "changed (turn 3); re-roll the branch for an episode of the story as it is now"], notes
    err = _cli_notes(story, tmp_path / "ep.vtt", capsys)
    assert "note: 2 turns use a stale take, made before its instruction was edited (turn 2) or an earlier turn " \
           "changed (turn 3)" in err, err


def test_a_changed_start_is_said_for_every_turn_in_one_group(story: Fixture, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    story.project.apply(SetStartState("", CharacterState(stamina=20, social=40, entertainment=60)))
    err = _cli_notes(story, tmp_path / "ep.srt", capsys)
    assert "note: turns 1, 2, 3 use a stale take (made before the start state changed)" in err, err
    assert "earlier turn" not in err, err
