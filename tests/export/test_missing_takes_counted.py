"""A branch whose turns lack clips says how many do, not only the first (QA: `kamishibai
export` of an imported story of 40 turns, none generated, named turn 1 alone; generating it
and exporting again named turn 2, and so on, 40 tries to learn what the branch needed).
The first turn keeps its own reason; the hint says how to generate them all at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from studio.core import SelectTake
from studio.export import ExportError, export_branch

from .helpers import Fixture, add_turn


def _refusal(fixture: Fixture, leaf: str, out: Path) -> ExportError:
    with pytest.raises(ExportError) as info:
        export_branch(fixture.project, leaf, out)
    assert not out.exists()
    return info.value


def test_later_turns_without_takes_are_counted(story: Fixture, tmp_path: Path) -> None:
    leaf = story.leaf
    for index in range(3):
        leaf = add_turn(story.project, leaf, f"Motion: sleep {index}.", (0, 0, 0), with_take=False)
    story.project.apply(SelectTake(story.nodes[1], None))  # turn 2: finished takes, none chosen
    error = _refusal(story, leaf, tmp_path / "e.srt")
    assert "turn 2" in error.message and "1 finished take" in error.message  # the first one's own reason
    assert "3 later turns of the branch have no finished take chosen either" in error.message
    assert error.hint.startswith("Select one of its finished takes")
    assert "kamishibai fill" in error.hint and "Ctrl+Shift+G" in error.hint


def test_one_later_turn_is_named_in_the_singular(story: Fixture, tmp_path: Path) -> None:
    first = add_turn(story.project, story.leaf, "Motion: sleep.", (0, 0, 0), with_take=False)
    leaf = add_turn(story.project, first, "Motion: wake.", (0, 0, 0), with_take=False)
    error = _refusal(story, leaf, tmp_path / "e.otio")
    assert "turn 4" in error.message and "has no take" in error.message
    assert "1 later turn of the branch has no finished take chosen either" in error.message
    assert error.hint.startswith("Generate every turn of the branch that has none")


def test_a_lone_bad_turn_keeps_its_message(story: Fixture, tmp_path: Path) -> None:
    leaf = add_turn(story.project, story.leaf, "Motion: sleep.", (0, 0, 0), with_take=False)
    error = _refusal(story, leaf, tmp_path / "e.pdf")
    assert "later turn" not in error.message
    assert error.hint == "Generate it (Re-roll in the window) to make a clip, then export again."  # no job for it


def test_the_command_line_says_how_many(story: Fixture, tmp_path: Path) -> None:
    leaf = story.leaf
    for index in range(5):
        leaf = add_turn(story.project, leaf, f"Motion: sleep {index}.", (0, 0, 0), with_take=False)
    story.project.close()
    result = subprocess.run([sys.executable, "-m", "studio", "export", str(story.project.path), "--leaf", leaf,
                             "--out", str(tmp_path / "e.srt")], capture_output=True, text=True)
    assert result.returncode == 2
    assert "4 later turns of the branch have no finished take chosen either" in result.stderr
    assert "Traceback" not in result.stderr
