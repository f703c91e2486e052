"""File › Close project (Ctrl+W) while jobs run, answered "Finish them" (QA: nothing happened,
then or later: the project stayed open once the queue was done, as the wait was only ever
set up for closing the window or opening another project)."""

from __future__ import annotations

from pathlib import Path

JOB_TIMEOUT_MS = 120_000


def test_close_project_finishes_the_queue_then_closes(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    tree = window.session.project.tree
    window.workspace.select(tree.leaves_under(tree.root_id)[0].id, center=False)
    window.session.service.pause()  # the jobs wait until the user has answered
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: window.session.tracker.active_count() > 0, timeout=10_000)
    asked: list[int] = []
    window.ask_close_policy = lambda count: asked.append(count) or "finish"
    window.actions_.close_project.trigger()
    assert asked and window.session is not None  # still open while the queue finishes...
    assert "Finishing the queued jobs before closing" in window.status_label.text()
    window.session.service.resume()
    qtbot.waitUntil(lambda: window.session is None, timeout=JOB_TIMEOUT_MS)  # ...then closed
    assert window.welcome is not None and window.status_label.text().startswith("Closed")
    assert not window.actions_.close_project.isEnabled()
