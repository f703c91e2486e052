"""A window with the queue out at the left (every Generate brings it out) could not be made
narrower than about 730 pixels: the window's minimum width counted the queue dock beside the
tree, so the window never got narrow enough for the queue to move beside the inspector, as it
does in a window opened narrow. Now the window narrows, the queue moves beside the inspector,
and it goes back to the left once there is room. A dock the user put elsewhere stays there."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

LEFT = Qt.DockWidgetArea.LeftDockWidgetArea
RIGHT = Qt.DockWidgetArea.RightDockWidgetArea
BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea
NARROW = (640, 480)


def _settle(qtbot, ms: int = 100) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(ms)


def _window_with_the_queue_out(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    window.resize(1200, 800)
    _settle(qtbot)
    window.workspace.queue.has_jobs = True
    window._queue_activity(True)  # as jobs arriving bring it out
    qtbot.waitUntil(lambda: not window.queue_dock.isHidden(), timeout=5000)
    _settle(qtbot)
    assert window.dockWidgetArea(window.queue_dock) == LEFT and window.queue_dock.isVisible()
    return window


def _nothing_cut_off(window) -> None:  # type: ignore[no-untyped-def]
    for part in (window.centralWidget(), window.inspector_dock):
        assert part.width() >= part.minimumSizeHint().width(), part.objectName() or type(part).__name__
    assert window.centralWidget().geometry().right() <= window.width()


def test_a_window_with_the_queue_out_narrows_and_the_queue_moves_beside_the_inspector(
        make_window, sample_project: Path, qtbot) -> None:
    window = _window_with_the_queue_out(make_window, sample_project, qtbot)
    assert window.layout().minimumSize().width() > NARROW[0]  # the queue at the left would not fit
    window.resize(*NARROW)  # one drag of the window's corner
    _settle(qtbot)
    assert (window.width(), window.height()) == NARROW, "the queue dock held the window wide"
    assert window.dockWidgetArea(window.queue_dock) == RIGHT
    assert window.queue_dock in window.tabifiedDockWidgets(window.inspector_dock)
    assert not window.queue_dock.isHidden()  # still out, a tab away
    _nothing_cut_off(window)
    # once set aside, the layout's minimum (which now fits) holds again
    assert window.minimumSizeHint().width() <= NARROW[0]
    assert window.minimumWidth() == window.layout().minimumSize().width()
    window.resize(1400, 800)
    qtbot.waitUntil(lambda: window.dockWidgetArea(window.queue_dock) == LEFT, timeout=5000)
    _settle(qtbot)
    assert window.queue_dock.isVisible()
    assert window.queue_dock not in window.tabifiedDockWidgets(window.inspector_dock)
    window.resize(*NARROW)  # and again
    _settle(qtbot)
    assert window.width() == NARROW[0] and window.dockWidgetArea(window.queue_dock) == RIGHT


def test_a_queue_the_user_put_at_the_bottom_stays_there(make_window, sample_project: Path, qtbot) -> None:
    window = _window_with_the_queue_out(make_window, sample_project, qtbot)
    window.addDockWidget(BOTTOM, window.queue_dock)  # the user dragged it under the tree
    _settle(qtbot)
    window.resize(*NARROW)
    _settle(qtbot)
    assert window.dockWidgetArea(window.queue_dock) == BOTTOM and window.queue_dock.isVisible()
    assert window.width() == NARROW[0]
    _nothing_cut_off(window)


def test_with_the_inspector_closed_the_queue_stays_and_nothing_is_cut_off(
        make_window, sample_project: Path, qtbot) -> None:
    window = _window_with_the_queue_out(make_window, sample_project, qtbot)
    window.inspector_dock.hide()  # nowhere to set the queue aside
    _settle(qtbot)
    window.resize(*NARROW)
    _settle(qtbot)
    assert window.dockWidgetArea(window.queue_dock) == LEFT and window.queue_dock.isVisible()
    assert window.width() >= window.layout().minimumSize().width()  # the layout's minimum holds
    central = window.centralWidget()
    assert central.width() >= central.minimumSizeHint().width()


def test_a_queue_the_user_put_back_at_the_left_stays_there(make_window, sample_project: Path, qtbot) -> None:
    window = _window_with_the_queue_out(make_window, sample_project, qtbot)
    window.queue_dock.setFloating(True)  # the user pulled it out, then docked it at the left again
    _settle(qtbot)
    window.queue_dock.setFloating(False)
    _settle(qtbot)
    assert window.dockWidgetArea(window.queue_dock) == LEFT and window.queue_dock.isVisible()
    window.resize(*NARROW)
    _settle(qtbot)
    assert window.dockWidgetArea(window.queue_dock) == LEFT and window.queue_dock.isVisible()
    assert window.queue_dock not in window.tabifiedDockWidgets(window.inspector_dock)
    assert window.width() >= window.layout().minimumSize().width()  # it holds the window wide: not cut off
    _nothing_cut_off(window)


def test_the_restored_layout_is_no_dock_placed_by_hand(make_window, sample_project: Path, settings, qtbot) -> None:
    first = _window_with_the_queue_out(make_window, sample_project, qtbot)
    first.close_project("cancel")
    first.close()  # saves the layout, the queue at the left
    _settle(qtbot)
    window = _window_with_the_queue_out(make_window, sample_project, qtbot)
    assert not window._placed_by_user
    window.resize(*NARROW)
    _settle(qtbot)
    assert window.width() == NARROW[0] and window.dockWidgetArea(window.queue_dock) == RIGHT
