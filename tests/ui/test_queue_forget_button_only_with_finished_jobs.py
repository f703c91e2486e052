""""Forget finished jobs" is offered only while the queue lists finished jobs: pressed with
none it did nothing, and said nothing."""

from __future__ import annotations

from pathlib import Path

TIMEOUT_MS = 60_000


def test_forget_is_offered_only_with_finished_jobs(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    panel = ws.queue
    if any(job.finished for job in panel.jobs()):
        panel.clear_finished()
        qtbot.waitUntil(lambda: not any(job.finished for job in panel.jobs()), timeout=10_000)
    panel.refresh()
    assert not panel.clear_button.isEnabled()
    assert panel.clear_button.toolTip() == "No finished jobs to forget"

    tree = window.session.project.tree
    ws.select(tree.child_ids(tree.root_id)[0])
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: any(job.finished for job in panel.jobs()), timeout=TIMEOUT_MS)
    qtbot.waitUntil(panel.clear_button.isEnabled, timeout=5000)
    assert panel.clear_button.toolTip() == "Forget finished jobs"

    panel.clear_finished()
    qtbot.waitUntil(lambda: not panel.clear_button.isEnabled(), timeout=10_000)
