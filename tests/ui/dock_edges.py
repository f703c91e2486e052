"""Mouse presses on the splitter between a dock and the canvas, sent as the user's mouse sends
them, for the tests of the panels' widths."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QDockWidget


def mouse(window: Any, kind: QEvent.Type, x: int, y: int, buttons: Qt.MouseButton) -> None:
    """A left-button mouse event of ``kind`` at (x, y) in the window."""
    event = QMouseEvent(kind, QPointF(x, y), QPointF(window.mapToGlobal(QPoint(x, y))), Qt.MouseButton.LeftButton,
                        buttons, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, event)


def dock_edge(window: Any, dock: QDockWidget) -> tuple[int, int]:
    """A point on the splitter between ``dock`` and the canvas."""
    area, central = dock.geometry(), window.centralWidget().geometry()
    if area.left() > central.right():
        return (central.right() + area.left()) // 2, area.center().y()
    assert area.right() < central.left()
    return (area.right() + central.left()) // 2, area.center().y()


def drag_dock_edge(window: Any, dock: QDockWidget, by: int) -> None:
    """Drag the splitter between ``dock`` and the canvas ``by`` pixels (to the left when
    negative); the button is always let go."""
    x, y = dock_edge(window, dock)
    held = Qt.MouseButton.LeftButton
    mouse(window, QEvent.Type.MouseButtonPress, x, y, held)
    try:
        for step in (1, 2):
            mouse(window, QEvent.Type.MouseMove, x + by * step // 2, y, held)
            QApplication.processEvents()
    finally:
        mouse(window, QEvent.Type.MouseButtonRelease, x + by, y, Qt.MouseButton.NoButton)
        for _ in range(3):
            QApplication.processEvents()
