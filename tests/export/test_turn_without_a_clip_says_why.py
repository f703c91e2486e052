"""A branch that can't be exported says why its turn has no clip, as the tree shows it.

A turn whose generation failed holds a failed take that is not chosen (only a finished take
is), and the export said it "has no take", while ``kamishibai tree`` listed "1 take(s)" for
it: the user learned neither that the generation failed nor why (the take's error, such as
running out of GPU memory). A turn with finished takes of which none is chosen was told to
"generate it", though choosing one of them is all it needs.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from studio.core import AddTake, AddTurn, SelectTake, StateDeltas, Take, TakeStatus
from studio.export import ExportError, export_branch

from .helpers import Fixture, add_turn


def _add_take(fixture: Fixture, node_id: str, status: TakeStatus, error: str = "") -> str:
    take_id = f"t{uuid.uuid4().hex[:9]}"
    fixture.project.apply(AddTake(Take(id=take_id, node_id=node_id, engine="test", deltas=StateDeltas(0, 0, 0),
                                       status=status, error=error)))
    return take_id


def _refusal(fixture: Fixture, leaf: str, out: Path) -> ExportError:
    with pytest.raises(ExportError) as info:
        export_branch(fixture.project, leaf, out)
    return info.value


def test_a_turn_whose_generation_failed_says_so_and_why(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(AddTurn(story.leaf, "Motion: sleep.", node_id="failedturn"))
    _add_take(story, "failedturn", TakeStatus.FAILED, "CUDA out of memory")
    error = _refusal(story, "failedturn", tmp_path / "e.mp4")
    assert "failedturn" in error.message and "turn 4" in error.message
    assert "no take" not in error.message, "it has a take: a failed one"
    assert "failed" in error.message and "CUDA out of memory" in error.message
    assert "re-roll" in (error.hint or "").lower()


def test_a_turn_with_finished_takes_but_none_chosen_is_told_to_choose_one(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(SelectTake(story.nodes[1], None))
    error = _refusal(story, story.leaf, tmp_path / "e.srt")
    assert story.nodes[1] in error.message
    assert "no take" not in error.message
    assert "1 finished take" in error.message
    assert "select" in (error.hint or "").lower() and "generate" not in (error.hint or "").lower()


def test_a_chosen_failed_take_gives_its_error(story: Fixture, tmp_path: Path) -> None:
    take = _add_take(story, story.nodes[2], TakeStatus.FAILED, "decoder crashed")
    story.project.apply(SelectTake(story.nodes[2], take))
    error = _refusal(story, story.leaf, tmp_path / "e.pdf")
    assert "a failed take" in error.message and "decoder crashed" in error.message


def test_a_turn_never_generated_still_has_no_take(story: Fixture, tmp_path: Path) -> None:
    leaf = add_turn(story.project, story.leaf, "Motion: sleep.", (0, 0, 0), with_take=False)
    error = _refusal(story, leaf, tmp_path / "e.otio")
    assert "has no take" in error.message
    assert "generate" in (error.hint or "").lower()
