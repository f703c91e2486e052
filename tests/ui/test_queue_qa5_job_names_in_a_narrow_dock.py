"""Visual QA round 5: in the queue dock as a 1280x720 window opens it (about 240 px wide),
an empty "Progress" column kept a third of the width and every job read "Generat…". The
column shows only while a job has progress to show; then it fits its text again."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QApplication

from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import QueuePanel
from studio.worker.events import JobStatus
from tests.ui.test_queue_panel_updates import StubJob, StubService

WIDTH = 240
WIDE = 320
"""Wide enough for the progress to have a column of its own (see PROGRESS_BESIDE_MIN_WIDTH)."""
NAME = "Generate turn 14"


def _panel(qtbot, jobs: list[StubJob]) -> tuple[QueuePanel, StubService]:  # type: ignore[no-untyped-def]
    panel = QueuePanel(JobTracker(), lambda job: f"{NAME} · Yuzu · library · {job.id}")
    qtbot.addWidget(panel)
    panel.resize(WIDTH, 400)
    panel.show()
    service = StubService(jobs)
    panel.set_service(service)
    panel.refresh()
    QApplication.processEvents()
    return panel, service


def test_finished_jobs_keep_their_names_readable_in_a_narrow_dock(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel, _ = _panel(qtbot, [StubJob("a", JobStatus.DONE), StubJob("b", JobStatus.FAILED, error="boom"),
                              StubJob("c", JobStatus.CANCELLED)])
    header = panel.list.header()
    assert header.sectionSize(0) >= panel.list.fontMetrics().horizontalAdvance(NAME) + 8, header.sectionSize(0)
    assert header.sectionSize(1) >= panel.list.sizeHintForColumn(1)  # the status is whole too
    assert panel.list.isColumnHidden(2)


def test_the_progress_column_comes_back_with_a_running_job_and_fits(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel, service = _panel(qtbot, [StubJob("a", JobStatus.DONE)])
    # a list this wide has room for the progress column (narrower, the progress goes under the name)
    panel.resize(WIDE, 400)
    QApplication.processEvents()
    assert panel.list.isColumnHidden(2)
    service.queue = [StubJob("b", JobStatus.RUNNING, 0.5, eta_s=1800.0), StubJob("a", JobStatus.DONE)]
    panel.refresh()
    assert not panel.list.isColumnHidden(2)
    header = panel.list.header()
    assert header.sectionSize(2) >= panel.list.sizeHintForColumn(2) > 0
    first = panel.list.topLevelItem(0)
    assert first is not None and first.text(2).startswith("50%")
    service.queue = [replace(service.queue[0], status=JobStatus.DONE), service.queue[1]]
    panel.refresh()
    assert panel.list.isColumnHidden(2)
