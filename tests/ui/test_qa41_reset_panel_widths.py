"""View › Reset panel widths, or a double click on a panel's edge (as in many apps), gives
the inspector and the left dock their automatic widths again: the ones a new window of the
same size gives them. Before, a width dragged to was kept for good (after a restart too),
and only a drag back to about the window's own width let the window size the inspector again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication, QDockWidget

from studio.ui.settings import StudioSettings
from tests.ui.dock_edges import dock_edge, drag_dock_edge, mouse

WIDTH, HEIGHT = 1920, 1000


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def _at(make_window: Any, qtbot: Any, project: Path) -> Any:
    window = make_window()

    def resized() -> bool:
        window.resize(WIDTH, HEIGHT)
        return window.width() == WIDTH and window.height() == HEIGHT

    qtbot.waitUntil(resized, timeout=5000)
    _settle()
    assert window.open_project(project), window.last_error
    _settle()
    return window


def _double_click(window: Any, dock: QDockWidget) -> None:
    x, y = dock_edge(window, dock)
    mouse(window, QEvent.Type.MouseButtonPress, x, y, Qt.MouseButton.LeftButton)
    mouse(window, QEvent.Type.MouseButtonRelease, x, y, Qt.MouseButton.NoButton)
    mouse(window, QEvent.Type.MouseButtonDblClick, x, y, Qt.MouseButton.LeftButton)
    mouse(window, QEvent.Type.MouseButtonRelease, x, y, Qt.MouseButton.NoButton)
    _settle()


def _widths(window: Any) -> tuple[int, int]:
    return window.inspector_dock.width(), window.cast_dock.width()


def test_reset_panel_widths_brings_back_the_automatic_widths(make_window, sample_project: Path,
                                                              settings: StudioSettings, qtbot) -> None:
    window = _at(make_window, qtbot, sample_project)
    assert window.cast_dock.isVisible() and not window.cast_dock.isFloating()
    automatic = _widths(window)

    drag_dock_edge(window, window.inspector_dock, -120)
    drag_dock_edge(window, window.cast_dock, 90)
    dragged = _widths(window)
    assert dragged[0] == automatic[0] + 120 and dragged[1] > automatic[1], (automatic, dragged)

    assert window.reset_panel_widths in window.menus["View"].actions()
    window.reset_panel_widths.trigger()
    _settle()
    assert _widths(window) == automatic
    assert window.inspector_width.chosen is None
    window.resize(WIDTH + 300, HEIGHT)  # the window's own width follows the window again
    _settle()
    window.resize(WIDTH, HEIGHT)
    _settle()
    assert window.inspector_dock.width() == automatic[0]

    window.close()  # not kept for the next start either
    assert StudioSettings.at(Path(settings.q.fileName())).inspector_width() is None


def test_a_double_click_on_a_panels_edge_resets_the_widths(make_window, sample_project: Path, qtbot) -> None:
    window = _at(make_window, qtbot, sample_project)
    automatic = _widths(window)
    drag_dock_edge(window, window.inspector_dock, -150)
    assert window.inspector_dock.width() == automatic[0] + 150
    _double_click(window, window.inspector_dock)
    assert _widths(window) == automatic
    assert window.inspector_width.chosen is None

    drag_dock_edge(window, window.cast_dock, 80)
    assert window.cast_dock.width() > automatic[1]
    _double_click(window, window.cast_dock)
    assert _widths(window) == automatic
