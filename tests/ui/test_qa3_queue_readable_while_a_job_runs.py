"""The queue dock stays readable while a job runs, at the window's default size and at
1280x720 (QA: the status and progress columns took most of the dock, every job read
"Genera…" at 1280x720 and "Generate turn 1…" at the default size, and the progress "14% · 2 s
left" was cut). A line is as tall as its name needs to show the turn and what it does."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import fake_engine_window

TIMEOUT_MS = 60_000
CELL_MARGIN = 8
"""The item view's text margins, left and right together (a little more than Fusion's)."""


@pytest.mark.parametrize("size", [None, (1280, 720)])
def test_job_names_and_progress_read_whole_while_a_job_runs(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                            settings, registry, size) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    if size is not None:
        window.resize(*size)
    ws = window.workspace
    script.step_sleep = 0.3  # long enough to look at the queue while a job runs
    tree = window.session.project.tree
    ws.select(tree.leaves_under(tree.root_id)[0].id, center=False)
    window.actions_.fill.trigger()
    queue = ws.queue.list
    qtbot.waitUntil(lambda: queue.topLevelItemCount() > 1 and any(
        queue.topLevelItem(i).text(2) for i in range(queue.topLevelItemCount())), timeout=TIMEOUT_MS)
    QApplication.processEvents()
    # a queue dock narrower than PROGRESS_BESIDE_MIN_WIDTH (the default window's) shows the
    # progress under the running job's name; a wider one (set beside the inspector) in a column
    in_column = not queue.isColumnHidden(2)
    header, metrics = queue.header(), queue.fontMetrics()

    def too_short() -> list[tuple[str, int, int]]:
        """The lines not tall enough for their names now (the columns settle as the running
        job's status and progress widen them, and the lines are laid out again after)."""
        width = header.sectionSize(0) - CELL_MARGIN
        short = []
        for index in range(queue.topLevelItemCount()):
            item = queue.topLevelItem(index)
            assert item is not None
            named = " ".join(item.text(0).split()[:6])
            needed = metrics.boundingRect(QRect(0, 0, width, 10_000), Qt.TextFlag.TextWordWrap, named).height()
            if queue.visualItemRect(item).height() < needed:
                short.append((named, width, queue.visualItemRect(item).height()))
        return short

    qtbot.waitUntil(lambda: not too_short(), timeout=5_000)
    width = header.sectionSize(0) - CELL_MARGIN
    for index in range(queue.topLevelItemCount()):
        item = queue.topLevelItem(index)
        assert item is not None
        words = item.text(0).split()
        named = " ".join(words[:6])  # "Generate turn 2 · Qiqi gently": the turn, who, what
        needed = metrics.boundingRect(QRect(0, 0, width, 10_000), Qt.TextFlag.TextWordWrap, named).height()
        assert queue.visualItemRect(item).height() >= needed, (named, width, queue.visualItemRect(item).height())
        progress = item.text(2)
        if progress and in_column:  # "14% · 2 s left": its percentage and its time left, each whole
            widest = max(metrics.horizontalAdvance(part) for part in progress.split(" · "))
            assert header.sectionSize(2) >= widest + CELL_MARGIN
        elif progress:  # whole, on the cell's second line
            assert metrics.horizontalAdvance(progress) + CELL_MARGIN <= header.sectionSize(0)
    script.step_sleep = 0.0
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=TIMEOUT_MS)
