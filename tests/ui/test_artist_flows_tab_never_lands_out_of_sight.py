"""Tab goes only to what the artist can see. With the queue and the Cast & world docks both
closed (a window narrower than 1,500 pixels with no job running: how the studio opens), the
tab bar the two docks share stayed in the window, empty and drawn nowhere: one Tab press in
each round of the window went to it, and the focus vanished until the next press."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTabBar, QWidget

STEPS = 150


def _seen_on_screen(widget: QWidget) -> bool:
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


def _tab_round(start: QWidget, qtbot, key: Qt.Key) -> list[QWidget]:  # type: ignore[no-untyped-def]
    """The widgets ``key`` focuses from ``start`` until the focus is back on it."""
    seen: list[QWidget] = []
    for _ in range(STEPS):
        focus = QApplication.focusWidget()
        assert focus is not None, f"the focus went nowhere after {[type(w).__name__ for w in seen[-5:]]}"
        qtbot.keyClick(focus, key)
        now = QApplication.focusWidget()
        if now is start:
            return seen
        assert now is not None
        seen.append(now)
    raise AssertionError(f"{key.name} never came back to the tree")


def _window_with_left_docks_closed(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: window.queue_dock.isHidden() and window.cast_dock.isHidden(), timeout=5000)
    view = window.workspace.view
    view.setFocus()
    qtbot.waitUntil(view.hasFocus, timeout=5000)
    return window


def test_tab_round_the_window_stops_only_on_widgets_in_sight(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = _window_with_left_docks_closed(make_window, sample_project, qtbot)
    for key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
        seen = _tab_round(window.workspace.view, qtbot, key)
        out_of_sight = [f"{type(w).__name__} {w.accessibleName()!r}" for w in seen if not _seen_on_screen(w)]
        assert not out_of_sight, f"{key.name} went to widgets drawn nowhere: {out_of_sight}"


def test_the_docks_tab_bar_is_a_stop_again_once_both_docks_are_open(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                     qtbot) -> None:
    window = _window_with_left_docks_closed(make_window, sample_project, qtbot)
    window.queue_dock.show()
    window.cast_dock.show()
    qtbot.waitUntil(lambda: any(bar.count() == 2 and _seen_on_screen(bar) for bar in window.findChildren(QTabBar)),
                    timeout=5000)
    window.workspace.view.setFocus()
    seen = _tab_round(window.workspace.view, qtbot, Qt.Key.Key_Tab)
    bars = [w for w in seen if isinstance(w, QTabBar)]
    assert bars and all(bar.count() == 2 and _seen_on_screen(bar) for bar in bars)  # the keyboard picks a dock
