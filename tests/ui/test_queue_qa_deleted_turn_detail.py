"""The line under the queue says why a selected job was cancelled, and follows it back when
the delete is undone (QA: a job whose turn was deleted read only "Generate · (deleted turn) ·
engine sketch · seed …": the reason was in a tooltip alone)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.ui.queue_panel import ended_reason
from studio.worker.runner import NODE_DELETED_BEFORE_MESSAGE

TIMEOUT_MS = 10_000


def test_a_job_whose_turn_was_deleted_says_so_until_the_undo(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                              qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    panel = ws.queue
    service = window.session.service
    service.pause()  # the jobs stay queued; a paused queue cancels a deleted turn's job at once
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: panel.summary.text() == "0 running · 5 queued", timeout=TIMEOUT_MS)
    job_id = next(job.id for job in service.jobs() if job.node_id == leaf)
    ws.select(leaf, center=False)
    window.actions_.delete.trigger()
    qtbot.waitUntil(lambda: panel.summary.text() == "0 running · 4 queued", timeout=TIMEOUT_MS)
    panel.select_job(job_id)
    assert panel.list.selectedItems()[0].text(1) == "cancelled"
    assert f"<b>Cancelled:</b> {NODE_DELETED_BEFORE_MESSAGE}" in panel.detail.text()
    assert not panel.retry_button.isEnabled()

    window.actions_.undo.trigger()
    qtbot.waitUntil(lambda: panel.summary.text() == "0 running · 5 queued", timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: "Cancelled" not in panel.detail.text(), timeout=TIMEOUT_MS)
    assert panel.selected_job_id() == job_id
    line = panel.list.selectedItems()[0]
    assert line.text(1) == "queued" and line.data(0, Qt.ItemDataRole.UserRole) == job_id
    assert panel.detail.text().startswith("Generate turn 5 · ") and "seed" in panel.detail.text()


def test_only_a_reason_worth_telling_is_shown() -> None:
    assert ended_reason("cancelled", NODE_DELETED_BEFORE_MESSAGE) == NODE_DELETED_BEFORE_MESSAGE
    assert ended_reason("cancelled", "Cancelled.") == ""  # the user cancelled it: the status says it all
    assert ended_reason("interrupted", "The window closed while it ran.") == "The window closed while it ran."
    assert ended_reason("queued", "") == "" and ended_reason("done", "stale") == ""
