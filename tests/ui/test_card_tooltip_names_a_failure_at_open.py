"""A card's tooltip names its take's error and engine warnings from the start (QA: a turn
whose take had failed showed the error in its tooltip while the window watched it fail,
but after the project was reopened, or its deletion undone, the tooltip was the bare
instruction: the card was made with the excerpt only)."""

from __future__ import annotations

from pathlib import Path

from studio.core import AddTake, Take
from studio.core.jobs import Job, JobKind, JobStatus
from studio.core.model import TakeStatus
from studio.storage import Project
from studio.storage.job_store import JobStore


def _fail_first_turn(path: Path) -> str:
    """The first turn's job failed, as a run would leave it: its failed take, and the failed job
    the queue lists (a card marks a failure while the queue lists its job)."""
    with Project.open(path) as project:
        first = project.tree.child_ids(project.tree.root_id)[0]
        project.apply(AddTake(Take(id="failed1", node_id=first, engine="sketch", status=TakeStatus.FAILED,
                                   error="the engine ran out of memory")))
        JobStore(project.database).save(Job(id="job1", kind=JobKind.GENERATE, node_id=first, engine="sketch",
                                            status=JobStatus.FAILED, sequence=1, take_id="failed1",
                                            error="the engine ran out of memory"))
        return first


def test_a_failed_turn_says_why_when_the_project_opens(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    first = _fail_first_turn(sample_project)
    window = make_window(sample_project)
    tip = window.workspace.scene.cards[first].toolTip()
    assert "the engine ran out of memory" in tip


def test_a_failed_turn_says_why_after_its_delete_is_undone(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    first = _fail_first_turn(sample_project)
    window = make_window(sample_project)
    ws = window.workspace
    ws.select(first)
    window.actions_.delete.trigger()
    qtbot.waitUntil(lambda: first not in ws.scene.cards)
    window.actions_.undo.trigger()
    qtbot.waitUntil(lambda: first in ws.scene.cards)
    assert "the engine ran out of memory" in ws.scene.cards[first].toolTip()
