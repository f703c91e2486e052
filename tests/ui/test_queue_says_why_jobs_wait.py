"""The queue panel says why a queued job can't run now (QA: a job for an engine this machine
can't run, as in a project queued on a GPU machine and opened on a laptop, read "queued"
forever with no reason)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.storage import Project


def test_a_job_for_an_engine_this_machine_cant_run_reads_blocked_with_the_reason(
        make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    with Project.open(sample_project) as project, project.database.transaction() as conn:
        node = next(n for n in project.tree.nodes.values() if not n.is_root).id
        conn.execute("INSERT INTO jobs(id, node_id, engine, status, settings, sequence, seed) "
                     "VALUES ('jgpu', ?, 'animegamer', 'queued', '{}', 1, 7)", (node,))
    window = make_window(sample_project)
    panel = window.workspace.queue
    panel.refresh()

    def line():  # type: ignore[no-untyped-def]
        items = [panel.list.topLevelItem(i) for i in range(panel.list.topLevelItemCount())]
        return next((item for item in items if item.data(0, Qt.ItemDataRole.UserRole) == "jgpu"), None)

    qtbot.waitUntil(lambda: line() is not None and line().text(1) == "blocked", timeout=5000)
    assert "animegamer engine can't run here" in line().toolTip(0)
    assert "1 blocked" in panel.summary.text()
