"""After a queued job is moved (Run later / Run earlier) the arrow keys go on from that job's
line (QA: moving the selected job down set its line aside and put it back, and the keyboard's
place stayed on the line that took its place: Down then selected the same job again)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidgetItem

from studio.core.jobs import JobKind
from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import QueuePanel
from studio.worker.events import JobStatus

from .test_queue_panel_updates import StubJob, StubService


@dataclass(frozen=True)
class Job(StubJob):
    kind: JobKind = JobKind.GENERATE


class MovingService(StubService):
    """Moves a queued job to a place in the run order, as the real queue does."""

    def move_by(self, job_id: str, steps: int) -> None:
        job = self.job(job_id)
        index = max(0, self.queue.index(job) + steps)
        rest = [j for j in self.queue if j.id != job_id]
        self.queue = [*rest[:index], job, *rest[index:]]


def _panel(qtbot, count: int) -> tuple[QueuePanel, MovingService]:  # type: ignore[no-untyped-def]
    panel = QueuePanel(JobTracker(), lambda job: f"job {job.id}")
    qtbot.addWidget(panel)
    panel.resize(400, 300)
    panel.show()
    service = MovingService([Job(f"j{i:03}", JobStatus.QUEUED) for i in range(count)])
    panel.set_service(service)
    return panel, service


def _line(panel: QueuePanel, row: int) -> QTreeWidgetItem:
    item = panel.list.topLevelItem(row)
    assert item is not None
    return item


def _click_line(panel: QueuePanel, qtbot, row: int) -> None:  # type: ignore[no-untyped-def]
    item = _line(panel, row)
    panel.list.scrollToItem(item)
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=panel.list.visualItemRect(item).center())


def test_down_after_run_later_goes_to_the_next_job(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel, _service = _panel(qtbot, 300)
    _click_line(panel, qtbot, 200)
    assert panel.selected_job_id() == "j200"
    qtbot.mouseClick(panel.down_button, Qt.MouseButton.LeftButton)  # j200 now runs after j201
    assert panel.selected_job_id() == "j200" and panel.list.currentItem() is _line(panel, 201)
    panel.list.setFocus()
    qtbot.keyClick(panel.list, Qt.Key.Key_Down)
    assert panel.selected_job_id() == "j202"


def test_up_after_run_later_goes_to_the_job_that_took_its_place(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel, _service = _panel(qtbot, 10)
    _click_line(panel, qtbot, 4)
    qtbot.mouseClick(panel.down_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.down_button, Qt.MouseButton.LeftButton)  # j004 now runs after j006
    assert [_line(panel, i).text(0) for i in range(4, 7)] == ["job j005", "job j006", "job j004"]
    panel.list.setFocus()
    qtbot.keyClick(panel.list, Qt.Key.Key_Up)
    assert panel.selected_job_id() == "j006"
