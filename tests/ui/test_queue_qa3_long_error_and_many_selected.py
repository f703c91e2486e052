"""A long error (a whole traceback) no longer pushes the list out of the queue: the line under
the list shows its first lines, says how many are left out, and its tooltip holds the whole
text. And Cancel (or Delete) acts on every selected job that can be cancelled."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import DETAIL_LINES, QueuePanel
from studio.worker.events import JobStatus

from .test_queue_panel_updates import StubService
from .test_queue_qa_multi_line_error import Job, _shown_lines

TRACEBACK = "The engine stopped.\n" + "\n".join(f'  File "engine.py", line {n}, in step' for n in range(200))


def test_a_long_error_shows_its_start_and_keeps_the_rest_in_a_tooltip(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = QueuePanel(JobTracker(), lambda job: f"job {job.id}")
    qtbot.addWidget(panel)
    panel.set_service(StubService([Job("f", JobStatus.FAILED, error=TRACEBACK)]))
    panel.select_job("f")
    lines = _shown_lines(panel.detail.text())
    assert len(lines) == DETAIL_LINES + 1
    assert lines[0] == "Failed: The engine stopped."
    assert lines[-1] == f"… ({201 - DETAIL_LINES} more line(s): hover here for the whole text)"
    assert panel.detail.toolTip() == TRACEBACK
    panel.set_service(StubService([Job("g", JobStatus.FAILED, error="short")]))
    panel.select_job("g")
    assert panel.detail.toolTip() == ""  # nothing left out: no tooltip


def test_delete_cancels_every_selected_job_that_can_be(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, service = window.workspace, window.session.service
    service.pause()
    tree = window.session.project.tree
    ws.select(tree.leaves_under(tree.root_id)[0].id)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: len(service.jobs()) == 5, timeout=10_000)
    jobs = [j.id for j in service.jobs()]
    ws.queue.refresh()
    ws.queue.select_jobs(jobs[-2:])
    assert ws.queue.cancel_button.isEnabled()
    assert not ws.queue.up_button.isEnabled()  # moves are for one job
    ws.queue.list.setFocus()
    qtbot.keyClick(ws.queue.list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: [service.job(j).status.value for j in jobs[-2:]] == ["cancelled", "cancelled"],
                    timeout=10_000)
    assert [service.job(j).status.value for j in jobs[:3]] == ["queued"] * 3
    assert window.last_error is None
