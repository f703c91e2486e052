"""Delete (and Backspace, for keyboards without Delete) on a job selected in the queue list
cancels it, as the Cancel button does; on a job the button can't cancel it does nothing."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from PySide6.QtCore import Qt

from studio.core.jobs import JobKind
from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import QueuePanel
from studio.worker.events import JobStatus

from .test_queue_panel_updates import StubJob, StubService


@dataclass(frozen=True)
class Job(StubJob):
    kind: JobKind = JobKind.GENERATE
    node_id: str = "turn"


class CancellingService(StubService):
    """Records the jobs cancelled (and marks them so)."""

    def __init__(self, jobs: list[Job]) -> None:
        super().__init__(jobs)
        self.cancelled: list[str] = []

    def cancel(self, job_id: str) -> None:
        self.cancelled.append(job_id)
        self.queue = [replace(j, status=JobStatus.CANCELLED) if j.id == job_id else j for j in self.queue]


def _panel(qtbot) -> tuple[QueuePanel, CancellingService]:  # type: ignore[no-untyped-def]
    panel = QueuePanel(JobTracker(), lambda job: f"job {job.id}")
    qtbot.addWidget(panel)
    service = CancellingService([Job("run", JobStatus.RUNNING, 0.3), Job("wait", JobStatus.QUEUED),
                                 Job("done", JobStatus.DONE)])
    panel.set_service(service)
    panel.show()
    return panel, service


@pytest.mark.parametrize("key", [Qt.Key.Key_Delete, Qt.Key.Key_Backspace])
@pytest.mark.parametrize("job", ["run", "wait"])
def test_delete_cancels_the_selected_job(qtbot, key: Qt.Key, job: str) -> None:
    panel, service = _panel(qtbot)
    panel.select_job(job)
    assert panel.cancel_button.isEnabled()
    panel.list.setFocus()
    qtbot.keyClick(panel.list, key)
    assert service.cancelled == [job]


def test_delete_on_a_finished_job_cancels_nothing(qtbot) -> None:
    panel, service = _panel(qtbot)
    panel.select_job("done")
    assert not panel.cancel_button.isEnabled()
    panel.list.setFocus()
    qtbot.keyClick(panel.list, Qt.Key.Key_Delete)
    qtbot.keyClick(panel.list, Qt.Key.Key_Backspace)
    assert service.cancelled == []
