"""Closing with the queue's jobs kept for next time, then opening the project again: the
queue opens by itself, shows the kept jobs (the window's one queue panel, not the closed
project's), and every kept job runs, the one stopped at close included.

The window kept each closed project's panels as hidden children of its docks: a queue panel
still listing the closed project's jobs as they were at close ("6 blocked · 1 interrupted")
was what the window showed to whoever looked for its queue panel."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from studio.ui.inspector.inspector import Inspector
from studio.ui.queue_panel import QueuePanel
from studio.ui.session import wait_for_close

ROUNDS = 3


def _statuses(project: Path) -> dict[str, str]:
    with sqlite3.connect(project / "project.db") as db:
        return {str(row[0]): str(row[1]) for row in db.execute("select id, status from jobs")}


def _one_round(window, sample_project: Path, qtbot, round_: int) -> None:  # type: ignore[no-untyped-def]
    """Re-roll the first turn's branch, close keeping its jobs while the first runs, open the
    project again and watch every kept job run."""
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    window.workspace.select(first, center=False)
    window.actions_.reroll_branch.trigger()
    window.session.settle()
    qtbot.waitUntil(lambda: any(j.status.value == "running" for j in window.session.active_jobs()), timeout=60_000)
    kept = {job.id for job in window.session.active_jobs()}
    assert len(kept) >= 2, kept
    window.queue_dock.hide()  # it opens by itself for the queued jobs at the next opening
    assert window.close_project("keep")
    assert wait_for_close(sample_project)
    stored = _statuses(sample_project)
    assert {stored[job_id] for job_id in kept} <= {"queued", "done"}, (round_, stored)

    assert window.open_project(sample_project), window.last_error
    panel = window.queue_dock.widget()
    assert isinstance(panel, QueuePanel)
    assert window.findChildren(QueuePanel) == [panel], "the closed project's queue panel left the window"
    assert len(window.findChildren(Inspector)) == 1
    qtbot.waitUntil(window.queue_dock.isVisible, timeout=5_000)
    assert kept <= {job.id for job in window.session.service.jobs(include_finished=True)}
    assert "blocked" not in panel.summary.text() and "interrupted" not in panel.summary.text(), \
        panel.summary.text()
    qtbot.waitUntil(lambda: all(window.session.service.job(job_id).status.value == "done" for job_id in kept),
                    timeout=120_000)
    qtbot.waitUntil(lambda: panel.summary.text().startswith("No jobs waiting"), timeout=5_000)
    assert window.jobs_label.text() == "Idle"


def test_kept_jobs_show_in_the_queue_and_all_run_when_the_project_opens(make_window, sample_project: Path,
                                                                          qtbot) -> None:
    window = make_window(sample_project)
    for round_ in range(ROUNDS):
        _one_round(window, sample_project, qtbot, round_)
