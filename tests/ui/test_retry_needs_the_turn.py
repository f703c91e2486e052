"""The queue's Retry is on only for a job that can run again: a re-roll cancelled because its
turn was deleted can't be retried while the turn is gone (QA: Retry was on for it, and pressing
it put up a warning, "can't be retried: its turn was deleted"); an undo that brings the turn
back queues the job again by itself, and it runs."""

from __future__ import annotations

from pathlib import Path

JOB_TIMEOUT_MS = 120_000


def test_retry_is_off_while_the_jobs_turn_is_deleted(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    errors: list[str] = []
    window.show_error = lambda error: errors.append(error.message)  # type: ignore[method-assign]
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    session.service.pause()  # the re-roll waits in the queue while its turn is deleted
    ws.reroll(leaf)
    session.settle()
    ws.delete_current()
    session.settle()
    session.service.resume()
    queue = ws.queue
    qtbot.waitUntil(lambda: [j.status.value for j in queue.jobs()] == ["cancelled"], timeout=10_000)
    job = queue.jobs()[0]
    queue.refresh()
    queue.select_job(job.id)
    qtbot.waitUntil(lambda: queue.selected_job_id() == job.id, timeout=5000)
    assert not queue.retry_button.isEnabled(), "Retry is on for a job whose turn is gone"
    assert "deleted" in queue.retry_button.toolTip()

    ws.undo()  # the turn is back: its job is queued again (the same job) and runs
    session.settle()
    qtbot.waitUntil(lambda: leaf in session.project.tree.nodes, timeout=10_000)
    qtbot.waitUntil(lambda: any(t.status.value == "done" for t in session.project.tree.takes_of(leaf)),
                    timeout=JOB_TIMEOUT_MS)
    assert session.service.job(job.id).status.value == "done"
    assert not errors
