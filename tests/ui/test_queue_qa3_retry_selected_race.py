"""The queue's Retry acts on each selected job that can still be retried when it runs, once.

QA: Retry took the first selected job only, read its state when pressed and retried it on the
writer later: a job retried meanwhile (or Retry pressed twice while the writer was busy) was
retried again, generating the turn twice, and a job forgotten meanwhile put up an error.
Now the selection may hold several jobs in mixed states; Retry retries those that can be
retried, each once, and says which it skipped and why."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import Qt

TIMEOUT_MS = 10_000


def _paused_fill_with_two_cancelled(window, qtbot):  # type: ignore[no-untyped-def]
    """Five queued turns of a branch (paused), the last two cancelled: (service, their ids, the first's)."""
    ws, session = window.workspace, window.session
    service = session.service
    service.pause()
    tree = session.project.tree
    ws.select(tree.leaves_under(tree.root_id)[0].id)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: len(service.jobs()) == 5, timeout=TIMEOUT_MS)
    jobs = [j.id for j in service.jobs()]
    for job_id in reversed(jobs[-2:]):  # the last first: no job waits for a cancelled one
        service.cancel(job_id)
    ws.queue.refresh()
    return service, jobs[-2:], jobs[0]


def _retries_of(service, job_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [j.id for j in service.jobs(include_finished=True) if j.retry_of == job_id]


def test_retry_skips_what_changed_since_the_selection(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    queue = window.workspace.queue
    service, (fourth, fifth), first = _paused_fill_with_two_cancelled(window, qtbot)
    queue.select_jobs([first, fourth, fifth])
    assert set(queue.selected_job_ids()) == {first, fourth, fifth}  # a queued job and two cancelled ones
    assert queue.retry_button.isEnabled()
    assert "2 of the 3" in queue.retry_button.toolTip()
    service.retry(fifth)  # retried elsewhere after it was selected
    qtbot.mouseClick(queue.retry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(_retries_of(service, fourth)), timeout=TIMEOUT_MS)
    window.session.settle()
    qtbot.waitUntil(queue.note.isVisible, timeout=TIMEOUT_MS)
    assert len(_retries_of(service, fifth)) == 1  # not retried a second time
    assert service.job(first).status.value == "queued"  # a queued job is left as it is
    note = queue.note.text()
    assert note.startswith("Retried 1 job(s); skipped 2:")
    assert first[:10] in note and "queued job can't be retried" in note
    assert fifth[:10] in note and "Already retried as job" in note
    assert queue.selected_job_ids() == _retries_of(service, fourth)  # the new job is selected
    assert window.last_error is None


def test_retry_pressed_twice_while_the_writer_is_busy_retries_once(make_window, sample_project: Path,
                                                                   qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    queue, session = window.workspace.queue, window.session
    service, (fourth, _fifth), _first = _paused_fill_with_two_cancelled(window, qtbot)
    queue.select_job(fourth)
    release = threading.Event()
    session.submit(lambda: release.wait(30))  # the writer is busy until released
    qtbot.mouseClick(queue.retry_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(queue.retry_button, Qt.MouseButton.LeftButton)
    release.set()
    qtbot.waitUntil(lambda: bool(_retries_of(service, fourth)), timeout=TIMEOUT_MS)
    session.settle()
    qtbot.wait(100)
    assert len(_retries_of(service, fourth)) == 1
    assert window.last_error is None
    queue.select_job(fourth)
    assert not queue.retry_button.isEnabled()
    assert queue.retry_button.toolTip().startswith("Already retried as job")


def test_retry_of_a_job_forgotten_meanwhile_says_so(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    queue, session = window.workspace.queue, window.session
    service, (fourth, _fifth), _first = _paused_fill_with_two_cancelled(window, qtbot)
    queue.select_job(fourth)
    release = threading.Event()
    session.submit(lambda: release.wait(30))
    qtbot.mouseClick(queue.clear_button, Qt.MouseButton.LeftButton)  # forgets the cancelled jobs first
    qtbot.mouseClick(queue.retry_button, Qt.MouseButton.LeftButton)
    release.set()
    qtbot.waitUntil(queue.note.isVisible, timeout=TIMEOUT_MS)
    assert queue.note.text() == f"Nothing was retried; skipped 1: job {fourth[:10]} (it is no longer in the queue)"
    assert not _retries_of(service, fourth) and window.last_error is None
