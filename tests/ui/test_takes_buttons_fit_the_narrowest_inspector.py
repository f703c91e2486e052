"""The takes' buttons (Compare…, Lock seed, Re-roll × N) fit the inspector at its narrowest: on
one line they needed 381 pixels (454 with a locked seed's "Seed 2147483647 locked") and the
inspector, 380 pixels wide in a narrow window, scrolled sideways on a turn. They now go on two
lines when one does not hold them, and back on one line when there is room."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QStyle

from studio.ui.theme import apply_theme
from studio.ui.window_layout import INSPECTOR_MIN

LONGEST_SEED = 2**31 - 1


def _settle(qtbot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(50)


@pytest.fixture
def themed():  # type: ignore[no-untyped-def]
    """The studio's style sheet (its buttons' padding makes them wider than plain Qt's)."""
    apply_theme(QApplication.instance(), "dark")
    yield
    apply_theme(QApplication.instance(), "dark")


@pytest.mark.parametrize("seed", [None, LONGEST_SEED])
def test_the_takes_buttons_need_no_sideways_scroll_in_the_narrowest_inspector(
        make_window, sample_project: Path, qtbot, themed, seed: int | None) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    window.resize(940, 720)
    ws = window.workspace
    turn = next(node for node in ws.tree.nodes.values() if not node.is_root)
    ws.select(turn.id)
    inspector, takes = ws.inspector, ws.inspector.takes
    takes.set_locked_seed(seed)
    window.resizeDocks([window.inspector_dock], [INSPECTOR_MIN], Qt.Orientation.Horizontal)
    _settle(qtbot)
    assert window.inspector_dock.width() <= INSPECTOR_MIN + 2, "the inspector is not at its narrowest"
    # room for the vertical scroll bar too: a turn with takes is taller than the window
    room = inspector.width() - 2 * inspector.frameWidth() - inspector.style().pixelMetric(
        QStyle.PixelMetric.PM_ScrollBarExtent)
    assert takes.minimumSizeHint().width() <= room - 20, "the takes view is wider than the inspector"
    assert not inspector.horizontalScrollBar().isVisible(), "the inspector scrolls sideways"
    viewport = inspector.viewport()
    for button in (takes.compare_button, takes.lock_button, takes.reroll_many_button, takes.reroll_count):
        right = button.mapTo(viewport, QPoint(button.width(), 0)).x()
        assert right <= viewport.width(), f"{button} is cut at the inspector's edge"
        assert button.width() >= button.sizeHint().width(), f"{button} is squeezed"
    assert takes.button_row.wrapped


def test_the_buttons_stay_on_one_line_where_they_fit(qtbot, themed) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.inspector.takes_view import TakesView
    from studio.ui.media_cache import ClipCache

    takes = TakesView(ClipCache(), str)
    qtbot.addWidget(takes)
    takes.resize(takes.button_row.one_line_width() + 40, 320)
    takes.show()
    qtbot.waitExposed(takes)
    _settle(qtbot)
    assert not takes.button_row.wrapped
    tops = {button.mapTo(takes, QPoint(0, 0)).y() for button in (takes.compare_button, takes.lock_button,
                                                                 takes.reroll_many_button)}
    assert len(tops) == 1, "the buttons are not on one line"
    takes.set_locked_seed(LONGEST_SEED)  # a longer wording: one line no longer holds them
    _settle(qtbot)
    assert takes.button_row.wrapped
    assert takes.reroll_many_button.mapTo(takes, QPoint(0, 0)).y() > takes.lock_button.mapTo(takes, QPoint(0, 0)).y()
