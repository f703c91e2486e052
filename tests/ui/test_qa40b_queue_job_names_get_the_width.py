"""The queue's job names get most of the list's width in a narrow dock (QA, in a 1280x720
window: the status column, fitted to its word "Status" while the hidden dock was laid out wide,
kept about 80 of the list's 230 pixels once it showed icons alone; each job's name got about
45 pixels, one word a line: "Re- / roll / turn / 5 · …")."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import QueuePanel
from studio.worker.events import JobStatus
from tests.ui.test_queue_panel_updates import StubJob, StubService

DOCK = 228
"""About the queue list's width in a 1280x720 window."""


def _settle(qtbot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(5):
        QApplication.processEvents()
        qtbot.wait(10)


def test_jobs_listed_while_the_dock_was_hidden_and_wide_get_the_room(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = QueuePanel(JobTracker(), lambda job: f"Re-roll turn 5 · Qiqi gently lies down in the grass {job.id}")
    qtbot.addWidget(panel)
    panel.resize(DOCK, 500)
    panel.show()
    qtbot.waitExposed(panel)
    _settle(qtbot)
    # the dock hides while nothing runs, and is laid out wide meanwhile (a window opening)
    panel.hide()
    panel.resize(700, 500)
    panel.list.resize(680, 400)
    panel.set_service(StubService([StubJob("run", JobStatus.RUNNING, 0.0),
                                   *(StubJob(f"q{i}", JobStatus.QUEUED) for i in range(8))]))
    panel.refresh()
    _settle(qtbot)
    panel.resize(DOCK, 500)
    panel.show()
    _settle(qtbot)
    panel.refresh()
    _settle(qtbot)

    header = panel.list.header()
    sizes = [header.sectionSize(c) for c in range(3)]
    metrics = panel.list.fontMetrics()
    assert sizes[1] < metrics.horizontalAdvance("queued"), sizes  # the status's icon alone
    assert sizes[0] > sizes[1], sizes
    assert sum(sizes) >= panel.list.viewport().width() - 2, sizes  # the name takes what is left
    assert sizes[0] >= metrics.horizontalAdvance("Re-roll turn"), sizes  # not a word a line
