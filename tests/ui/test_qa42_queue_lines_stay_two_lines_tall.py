"""The queue dock as windows of 800x600, 1280x720 and 1920x1080 give it (about 194, 240 and
270 pixels): each job's line is two text lines tall, not three or four (the names wrapped
beside the progress column and a dock showed a handful of jobs), the name has nearly the
list's width, the running job's progress is the second line of its cell, under its name cut
to one line, and the whole name is in the line's tooltip."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem

from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import QueuePanel
from studio.worker.events import JobStatus
from tests.ui.test_queue_panel_updates import StubJob, StubService

NAME = "Re-roll turn 12 · Qiqi gently sits on the railing in town, by day"


def _panel(qtbot, width: int) -> QueuePanel:  # type: ignore[no-untyped-def]
    panel = QueuePanel(JobTracker(), lambda job: f"{NAME} {job.id}")
    qtbot.addWidget(panel)
    panel.resize(width, 500)
    panel.show()
    qtbot.waitExposed(panel)
    waiting = [StubJob(f"q{i}", JobStatus.QUEUED) for i in range(6)]
    jobs = [StubJob("run", JobStatus.RUNNING, 0.42, eta_s=12.0), *waiting]
    panel.set_service(StubService(jobs))
    panel.refresh()
    for _ in range(3):
        QApplication.processEvents()
    return panel


@pytest.mark.parametrize("dock", [194, 240, 270])
def test_every_line_is_two_lines_tall_with_the_name_across_the_list(qtbot, dock: int) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot, dock)
    tree, metrics = panel.list, panel.list.fontMetrics()
    for row in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(row)
        assert item is not None
        assert tree.visualItemRect(item).height() < 3 * metrics.lineSpacing(), (dock, row)
        assert item.toolTip(0) == item.text(0) == f"{NAME} {item.text(0).split()[-1]}"
    assert tree.isColumnHidden(2), "the progress has no column of its own in a dock this narrow"
    assert tree.header().sectionSize(0) >= 0.8 * tree.viewport().width()

    running = tree.topLevelItem(0)
    assert running is not None
    index = tree.indexFromItem(running, 0)
    option = QStyleOptionViewItem()
    option.rect = tree.visualRect(index)
    option.widget = tree
    tree.itemDelegate().initStyleOption(option, index)
    name, _, progress = option.text.partition("\u2028")
    assert progress == running.text(2) == "42% · 12 s left"
    assert name.endswith("…") and NAME.startswith(name[:-1].rstrip())
    assert metrics.horizontalAdvance(name) <= option.rect.width(), "the name's first line leaves the progress its own"


def test_a_failed_jobs_tooltip_gives_its_whole_name_then_its_error(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = QueuePanel(JobTracker(), lambda job: f"{NAME} {job.id}")
    qtbot.addWidget(panel)
    panel.resize(240, 400)
    panel.show()
    panel.set_service(StubService([StubJob("bad", JobStatus.FAILED, error="Out of memory.", hint="Fewer frames.")]))
    panel.refresh()
    line = panel.list.topLevelItem(0)
    assert line is not None
    assert line.toolTip(0) == f"{NAME} bad\nOut of memory.\nHint: Fewer frames."


def test_a_wide_list_gives_the_progress_its_column(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot, 420)
    assert not panel.list.isColumnHidden(2)
    running = panel.list.topLevelItem(0)
    assert running is not None and running.text(2) == "42% · 12 s left"
