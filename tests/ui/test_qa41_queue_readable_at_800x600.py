"""At 800x600 with the queue open (a job running, others waiting), each job's words are
readable: the queue's job column keeps most of the list, not about 52 pixels."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QApplication, QStyleOptionViewItem

SIZE = (800, 600)


def _settle(qtbot: Any) -> None:
    for _ in range(5):
        QApplication.processEvents()
        qtbot.wait(20)


def test_the_job_column_is_readable_in_an_800x600_window(make_window, sample_project: Path, settings, registry,
                                                        qtbot) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.conftest import fake_engine_window, generate_a_held_turn

    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    qtbot.waitUntil(lambda: (window.resize(*SIZE), window.size().toTuple() == SIZE)[1], timeout=5000)
    _settle(qtbot)
    ws = window.workspace
    tree = ws.tree
    generate_a_held_turn(window, "Qiqi waves at the train [block]")
    try:
        assert script.started.wait(30)
        ws.select(tree.leaves_under(tree.root_id)[1].id, center=False)
        window.actions_.fill.trigger()  # the other branch waits behind it
        qtbot.waitUntil(lambda: window.queue_dock.isVisible() and ws.queue.list.topLevelItemCount() > 3,
                        timeout=10_000)
        window.queue_dock.raise_()
        _settle(qtbot)
        panel = ws.queue
        header = panel.list.header()
        sizes = [header.sectionSize(c) if not panel.list.isColumnHidden(c) else 0 for c in range(3)]
        if os.environ.get("QA41_SHOTS"):
            window.grab().save(os.environ["QA41_SHOTS"])
        metrics = panel.list.fontMetrics()
        # before: [74, 28, 84] here (52 pixels for the name with another font): "Generate" /
        # "turn 6 ·" / "Qiqi waves" / "at the tr…", a word or two a line
        assert sizes[0] >= 0.7 * panel.list.viewport().width(), sizes
        assert sizes[0] >= metrics.horizontalAdvance("Generate turn 6 · Qiqi") + 8, sizes
        running = panel.list.topLevelItem(0)
        assert running is not None and running.text(1) == "running"
        # the running job's progress is still in sight: the second line of its cell, under its
        # name cut to one line (its whole name is in the tooltip)
        index = panel.list.indexFromItem(running, 0)
        option = QStyleOptionViewItem()
        option.rect = panel.list.visualRect(index)
        option.widget = panel.list
        panel.list.itemDelegate().initStyleOption(option, index)
        name, _, progress = option.text.partition("\u2028")
        assert progress == running.text(2) and progress.startswith("0%"), option.text
        assert running.text(0).startswith(name.removesuffix("…").rstrip()) and running.text(0) in running.toolTip(0)
        assert panel.list.visualItemRect(running).height() >= 2 * metrics.lineSpacing()
    finally:
        script.release.set()
