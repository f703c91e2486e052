""""Forget finished jobs" forgets the failures too: a turn card whose job failed loses its failed
mark and the error in its tooltip once the queue no longer lists that job, and they stay gone
after an undo and after the project is reopened (QA: the card kept the mark and the tooltip,
from the tracker's view of the job, and from the failed take, for ever). A card keeps its mark
while the queue still lists another failed job of its turn."""

from __future__ import annotations

from pathlib import Path

from studio.core.jobs import Job, JobKind, JobStatus
from studio.ui.job_tracker import JobTracker
from studio.ui.node_summary import CardStatus
from studio.worker.events import EventKind, JobEvent
from tests.ui.conftest import fake_engine_window

TIMEOUT_MS = 60_000
TOLD = "the fake engine was told to fail"


def _failing_window(make_window, sample_project: Path, qtbot, settings, registry):  # type: ignore[no-untyped-def]
    """A window on the sample whose first turn's re-roll failed: (window, first turn)."""
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    script.fail_on.add(tree.node(first).instruction.raw)
    window.workspace.select(first)
    window.actions_.reroll.trigger()
    card = window.workspace.scene.cards
    qtbot.waitUntil(lambda: card[first].summary.status == CardStatus.FAILED, timeout=TIMEOUT_MS)
    assert TOLD in card[first].toolTip()
    return window, first


def test_forgetting_a_failed_job_clears_its_cards_mark_for_good(make_window, sample_project: Path, qtbot,
                                                                 settings, registry) -> None:  # type: ignore[no-untyped-def]
    window, first = _failing_window(make_window, sample_project, qtbot, settings, registry)
    ws = window.workspace
    qtbot.waitUntil(lambda: any(j.status.value == "failed" for j in ws.queue.jobs()), timeout=TIMEOUT_MS)
    ws.queue.clear_finished()
    qtbot.waitUntil(lambda: not ws.queue.jobs(), timeout=10_000)
    qtbot.waitUntil(lambda: ws.scene.cards[first].summary.status != CardStatus.FAILED, timeout=5000)
    assert TOLD not in ws.scene.cards[first].toolTip()

    # an edit and its undo redraw the card from the document: the failed take is still there
    ws.select(first)
    ws.toggle_bookmark()
    window.session.settle()
    ws.undo()
    window.session.settle()
    qtbot.wait(200)
    assert ws.scene.cards[first].summary.status != CardStatus.FAILED
    assert TOLD not in ws.scene.cards[first].toolTip()

    path = window.session.project.path
    window.close_project("cancel")
    assert window.open_project(path), window.last_error
    card = window.workspace.scene.cards[first]
    assert card.summary.status != CardStatus.FAILED and TOLD not in card.toolTip()
    assert not window.workspace.queue.jobs()


def test_a_failure_still_listed_at_open_keeps_its_mark(make_window, sample_project: Path, qtbot, settings,
                                                      registry) -> None:  # type: ignore[no-untyped-def]
    window, first = _failing_window(make_window, sample_project, qtbot, settings, registry)
    path = window.session.project.path
    window.close_project("cancel")
    assert window.open_project(path), window.last_error
    card = window.workspace.scene.cards[first]
    assert card.summary.status == CardStatus.FAILED and TOLD in card.toolTip()
    assert not window.workspace.queue.has_jobs  # a failure of an earlier session doesn't pop the queue open


def _failed(job_id: str, node_id: str = "turn", error: str = "boom", retry_of: str = "") -> Job:
    return Job(id=job_id, kind=JobKind.GENERATE, node_id=node_id, engine="sketch", status=JobStatus.FAILED,
               error=error, retry_of=retry_of)


def test_the_mark_stays_while_another_failure_of_the_turn_is_listed(qtbot) -> None:  # type: ignore[no-untyped-def]
    tracker = JobTracker()
    one, two = _failed("one", error="first"), _failed("two", error="second")
    for job in (one, two):
        tracker.on_event(JobEvent(EventKind.FAILED, job, message=job.error))
    with qtbot.waitSignal(tracker.nodes_changed) as told:
        tracker.follow_failures([two])  # "one" was forgotten
    assert told.args == [{"turn"}]
    view = tracker.for_node("turn")
    assert view is not None and view.error == "second"
    tracker.follow_failures([two, Job(id="three", kind=JobKind.GENERATE, node_id="turn", retry_of="two")])
    assert tracker.for_node("turn") is None  # "two" was retried: no failure of the turn is left
