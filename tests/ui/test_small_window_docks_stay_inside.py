"""The queue and cast docks in a window on half of a laptop screen: coming out at the left they
widened the window past the screen's edge (the queue comes out with every Generate). In a
window too narrow for them they come out in a tab beside the inspector, and go back to the
left once the window has room; a long status message no longer widens the window either."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTabBar

from studio.ui.elided_label import ElidedLabel

from .test_small_window_fits_half_a_laptop_screen import SMALL, shrink

LEFT = Qt.DockWidgetArea.LeftDockWidgetArea
RIGHT = Qt.DockWidgetArea.RightDockWidgetArea


def _settle(qtbot, ms: int = 100) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(ms)


def _dock_tabs(window) -> list[str]:  # type: ignore[no-untyped-def]
    """The titles of the dock tab bars' tabs that are shown."""
    return [bar.tabText(i) for bar in window.findChildren(QTabBar) if bar.isVisible() for i in range(bar.count())]


def test_the_queue_comes_out_beside_the_inspector_in_a_narrow_window(make_window, sample_project: Path,
                                                                    qtbot) -> None:
    window = make_window(sample_project)
    shrink(window, qtbot)
    queue = window.workspace.queue
    queue.has_jobs = True
    window._queue_activity(True)  # as jobs arriving bring it out
    qtbot.waitUntil(lambda: not window.queue_dock.isHidden(), timeout=5000)
    _settle(qtbot)
    assert (window.width(), window.height()) == SMALL, "the queue widened the window"
    assert window.minimumSizeHint().width() <= SMALL[0]
    assert window.dockWidgetArea(window.queue_dock) == RIGHT
    assert window.queue_dock in window.tabifiedDockWidgets(window.inspector_dock)
    assert "Queue" in _dock_tabs(window)  # a click away, and a Tab stop (arrow keys switch tabs)
    bar = next(b for b in window.findChildren(QTabBar) if b.isVisible()
               and "Queue" in [b.tabText(i) for i in range(b.count())])
    assert bar.focusPolicy() != Qt.FocusPolicy.NoFocus
    # the inspector (being edited) stays in front
    assert not window.inspector_dock.visibleRegion().isEmpty()
    assert window.workspace.inspector.isVisible()
    # wide enough again: the queue goes back to the left, shown as it was
    window.resize(1400, 800)
    qtbot.waitUntil(lambda: window.dockWidgetArea(window.queue_dock) == LEFT, timeout=5000)
    _settle(qtbot)
    assert window.queue_dock.isVisible() and not window.queue_dock.isFloating()
    assert window.queue_dock not in window.tabifiedDockWidgets(window.inspector_dock)


def test_view_cast_and_world_in_a_narrow_window_keeps_its_size(make_window, sample_project: Path,
                                                              qtbot) -> None:
    window = make_window(sample_project)
    shrink(window, qtbot)
    assert window.cast_dock.isHidden()  # a narrow window collapses it
    window.cast_dock.toggleViewAction().trigger()
    _settle(qtbot)
    assert window.cast_dock.isVisible()
    assert (window.width(), window.height()) == SMALL, "the cast dock widened or heightened the window"
    assert window.dockWidgetArea(window.cast_dock) == RIGHT
    # its panel scrolls rather than ask for its whole height; its buttons keep their width
    cast = window.workspace.cast
    assert window.cast_dock.widget().isAncestorOf(cast)
    window.cast_dock.raise_()
    _settle(qtbot)
    assert cast.width() >= cast.minimumSizeHint().width()
    # closing the window saves the layout of a window with room: the dock at the left
    window._put_back_set_aside()
    assert window.dockWidgetArea(window.cast_dock) == LEFT and window.cast_dock.isVisible()


def test_a_dock_the_user_moved_stays_where_they_put_it(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    shrink(window, qtbot)
    window.cast_dock.toggleViewAction().trigger()
    _settle(qtbot)
    assert window.cast_dock in window._set_aside
    window.cast_dock.setFloating(True)  # the user pulled it out
    _settle(qtbot)
    window.resize(1400, 800)
    _settle(qtbot)
    assert window.cast_dock.isFloating()
    assert window.cast_dock not in window._set_aside


def test_a_long_status_message_does_not_widen_the_window(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    shrink(window, qtbot)
    message = "Could not read " + "/very/long/folder/name" * 20 + "/clip.mp4: put it back or re-roll the turn"
    window.show_message(message)
    _settle(qtbot)
    assert window.width() == SMALL[0]
    label = window.status_label
    assert isinstance(label, ElidedLabel)
    assert label.text() == message  # whole, for a screen reader and for copying
    assert label.is_elided() and label.shown_text().endswith("…")
    assert label.fontMetrics().horizontalAdvance(label.shown_text()) <= label.contentsRect().width()
    window.show_message("Saved")
    _settle(qtbot)
    assert not label.is_elided()
