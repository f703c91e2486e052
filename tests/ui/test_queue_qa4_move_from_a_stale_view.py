"""Run earlier / Run later move the selected job past as many jobs as the user asked, counted
in the queue as it is when the move runs on the writer.

QA: the panel turned a press into a place in the run order, read when pressed; the move ran
later on the writer. A job that left the queue in between (it started, ended or was cancelled)
made the moved job land one place off (here: not move at all), and two presses before the
first landed moved it once. A job that itself left the queue meanwhile put up an error.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import Qt

TIMEOUT_MS = 10_000


def _four_queued(window):  # type: ignore[no-untyped-def]
    """Four queued re-rolls of one turn (the queue paused): (service, their ids in run order)."""
    session = window.session
    service = session.service
    service.pause()
    tree = session.project.tree
    turn = tree.children(tree.root_id)[0].id
    job_ids = [service.reroll(turn) for _ in range(4)]
    window.workspace.queue.refresh()
    return service, job_ids


def _queued(service) -> list[str]:  # type: ignore[no-untyped-def]
    return [job.id for job in service.jobs() if job.status.value == "queued"]


def _busy_writer(session, then=lambda: None) -> threading.Event:  # type: ignore[no-untyped-def]
    """Keep the writer busy until the event is set; ``then`` runs on it just before it is free."""
    release = threading.Event()

    def hold() -> None:
        release.wait(30)
        then()

    session.submit(hold)
    return release


def _press_while_a_job_leaves(window, qtbot, button: str, select: int, cancel: int):  # type: ignore[no-untyped-def]
    """Select the ``select``-th of four queued jobs and press ``button``; the ``cancel``-th job
    leaves the queue on the writer after the panel read it, before the move runs.
    Returns (service, the four job ids)."""
    queue = window.workspace.queue
    service, job_ids = _four_queued(window)
    queue.select_job(job_ids[select])
    release = _busy_writer(window.session, lambda: service.cancel(job_ids[cancel]))
    qtbot.mouseClick(getattr(queue, button), Qt.MouseButton.LeftButton)
    release.set()
    return service, job_ids


def test_run_earlier_counts_places_in_the_queue_as_it_is_when_the_move_runs(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    queue, session = window.workspace.queue, window.session
    service, (first, second, third, fourth) = _press_while_a_job_leaves(window, qtbot, "up_button", 2, 0)
    qtbot.waitUntil(lambda: service.job(first).status.value == "cancelled", timeout=TIMEOUT_MS)
    session.settle()
    assert _queued(service) == [third, second, fourth]  # before the job it was after, as the user meant
    qtbot.waitUntil(lambda: queue.selected_job_id() == third, timeout=TIMEOUT_MS)
    assert window.last_error is None


def test_two_presses_before_the_first_lands_move_two_places(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                            qtbot) -> None:
    window = make_window(sample_project)
    queue, session = window.workspace.queue, window.session
    service, (first, second, third, fourth) = _four_queued(window)
    queue.select_job(fourth)
    release = _busy_writer(session)
    qtbot.mouseClick(queue.up_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(queue.up_button, Qt.MouseButton.LeftButton)
    release.set()
    session.settle()
    assert _queued(service) == [first, fourth, second, third]
    assert window.last_error is None


def test_a_job_that_left_the_queue_meanwhile_is_not_moved_and_the_panel_says_why(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    queue = window.workspace.queue
    service, (first, second, third, fourth) = _press_while_a_job_leaves(window, qtbot, "down_button", 2, 2)
    qtbot.waitUntil(queue.note.isVisible, timeout=TIMEOUT_MS)
    assert queue.note.text() == f"Job {third} was not moved: it was cancelled meanwhile."
    assert _queued(service) == [first, second, fourth]
    assert window.last_error is None
