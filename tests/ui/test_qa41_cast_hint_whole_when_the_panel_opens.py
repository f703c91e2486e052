"""The Cast & world panel's hint line ("Double-click a name … to rename it.") is whole when
the panel first opens (View › Cast & world in a window too narrow to show it by itself), not
only after the window is resized.

Why it was cut: the dock's scroll area gave the panel its preferred height for the dock's
width (QScrollArea does so for a widget with word-wrapped labels), that is with both lists
at their preferred heights; in a dock shorter than that the panel scrolled, its last line,
the hint, below the dock's edge, though the lists could have given up the room."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea


def _settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


@pytest.mark.parametrize("height", [720, 660, 600])
def test_the_hint_is_whole_when_the_cast_panel_first_opens(make_window, sample_project: Path, qtbot,
                                                          height: int) -> None:
    window: Any = make_window()
    qtbot.waitUntil(lambda: (window.resize(1280, height), window.height() == height)[1], timeout=5000)
    assert window.open_project(sample_project), window.last_error
    _settle()
    assert window.cast_dock.isHidden()  # too narrow a window: it waits in the View menu
    window.cast_dock.toggleViewAction().trigger()
    _settle()

    scroll = window.cast_dock.widget()
    assert isinstance(scroll, QScrollArea)
    cast = window.workspace.cast
    hint = next(label for label in cast.findChildren(QLabel) if label.text().startswith("Double-click a name"))
    assert hint.height() >= hint.heightForWidth(hint.width())  # every line of it laid out
    bottom = hint.mapTo(scroll.viewport(), QPoint(0, hint.height())).y()
    # the lists give up room before the panel scrolls: it fits the dock, the hint in sight
    assert scroll.verticalScrollBar().maximum() == 0, (cast.height(), scroll.viewport().height())
    assert bottom <= scroll.viewport().height(), (bottom, scroll.viewport().height())
    assert cast.width() <= scroll.viewport().width()


def test_a_dock_too_short_for_the_panel_scrolls_to_the_hint(make_window, sample_project: Path, qtbot) -> None:
    window: Any = make_window()
    qtbot.waitUntil(lambda: (window.resize(1280, 380), window.height() == 380)[1], timeout=5000)
    assert window.open_project(sample_project), window.last_error
    window.cast_dock.toggleViewAction().trigger()
    _settle()
    scroll = window.cast_dock.widget()
    bar = scroll.verticalScrollBar()
    assert bar.maximum() > 0 and bar.isVisible()  # it can't fit: it scrolls
    bar.setValue(bar.maximum())
    _settle()
    hint = next(label for label in window.workspace.cast.findChildren(QLabel)
                if label.text().startswith("Double-click a name"))
    bottom = hint.mapTo(scroll.viewport(), QPoint(0, hint.height())).y()
    assert bottom <= scroll.viewport().height()
    assert hint.height() >= hint.heightForWidth(hint.width())
