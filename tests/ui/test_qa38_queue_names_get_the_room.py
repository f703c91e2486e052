"""The queue in a narrow dock with many jobs: the job's name gets the room (the status shows
its icon alone there, its word in the tooltip), the running job's progress reads whole, and
the line above a list of finished jobs says none waits rather than "Queue empty"."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QStyle

from studio.ui.job_tracker import JobTracker
from studio.ui.queue_lines import ESTIMATING
from studio.ui.queue_panel import QueuePanel, summary_text
from studio.worker.events import JobStatus
from tests.ui.test_queue_panel_updates import StubJob, StubService

DOCK = 235
"""About the queue dock's width in a 1600-pixel window."""
WIDE = 320
"""A queue dock widened enough for the progress to have a column of its own (in a narrower
one it goes under the running job's name)."""


def _panel(qtbot, jobs: list[StubJob], width: int = DOCK) -> QueuePanel:  # type: ignore[no-untyped-def]
    panel = QueuePanel(JobTracker(), lambda job: f"Re-roll turn 55 · Yuzu gently lies on the grass {job.id}")
    qtbot.addWidget(panel)
    panel.resize(width, 500)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_service(StubService(jobs))
    panel.refresh()
    for _ in range(3):
        QApplication.processEvents()
    return panel


def _many() -> list[StubJob]:
    return [StubJob("run", JobStatus.RUNNING, 0.0), *(StubJob(f"q{i}", JobStatus.QUEUED) for i in range(40))]


def test_the_job_column_gets_the_room_in_a_narrow_dock(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot, _many())
    header = panel.list.header()
    viewport = panel.list.viewport().width()
    assert header.sectionSize(0) >= 0.4 * viewport, [header.sectionSize(c) for c in range(3)]  # 40 of 235 px before
    metrics = panel.list.fontMetrics()
    assert header.sectionSize(1) < metrics.horizontalAdvance("queued"), "the status shows its icon alone here"
    assert sum(header.sectionSize(c) for c in range(3)) >= viewport - 2, "the job's name takes the rest"
    line = panel.list.topLevelItem(1)
    assert line is not None and line.text(1) == "queued"  # the word stays, for the tooltip and screen readers
    assert line.toolTip(1)  # the status's word (or why it waits) where the column shows the icon alone


def test_the_status_is_spelled_out_where_the_dock_has_room(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot, _many(), width=700)
    metrics = panel.list.fontMetrics()
    assert panel.list.header().sectionSize(1) >= metrics.horizontalAdvance("running")
    panel.resize(DOCK, 500)
    qtbot.waitUntil(lambda: panel.list.header().sectionSize(1) < metrics.horizontalAdvance("running"), timeout=3000)
    panel.resize(700, 500)
    qtbot.waitUntil(lambda: panel.list.header().sectionSize(1) >= metrics.horizontalAdvance("running"), timeout=3000)


def test_the_progress_keeps_its_two_lines_whole(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot, _many(), width=WIDE)
    line = panel.list.topLevelItem(0)
    assert line is not None and line.text(2) == f"0% · {ESTIMATING}"
    metrics = panel.list.fontMetrics()
    margin = panel.list.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, panel.list) + 1
    rect = panel.list.visualItemRect(line)
    assert rect.height() >= 2 * metrics.lineSpacing()  # the time left has a line of its own
    assert panel.list.header().sectionSize(2) >= metrics.horizontalAdvance(ESTIMATING) + 2 * margin + 1


def test_finished_jobs_are_counted_and_nothing_waits(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot, [StubJob("a", JobStatus.DONE), StubJob("b", JobStatus.FAILED, error="boom"),
                           StubJob("c", JobStatus.CANCELLED)])
    assert panel.list.topLevelItemCount() == 3
    assert panel.summary.text() == "No jobs waiting · 3 finished"
    assert summary_text(0, 0) == "No jobs waiting"
    assert summary_text(2, 1_200) == "2 running · 1,200 queued"
