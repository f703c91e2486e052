"""Drags and drops as the windowing system hands them to a studio window: sent to its
``QWindow`` at a point, so that Qt finds the widget under it that takes drops (the canvas
there, or the window around it), as it does for a drag from a file manager."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QWidget

ACTIONS = Qt.DropAction.CopyAction | Qt.DropAction.MoveAction | Qt.DropAction.LinkAction


def files_mime(*paths: Path, urls: Sequence[str] = ()) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths] + [QUrl(url) for url in urls])
    return mime


def point_on(window: QWidget, widget: QWidget) -> QPoint:
    """The middle of ``widget``, in ``window``'s coordinates."""
    return widget.mapTo(window, widget.rect().center())


def drag_over(window: QWidget, at: QPoint, mime: QMimeData) -> bool:
    """Drag ``mime`` into the window to ``at`` (an enter, then a move); whether the drop would
    be taken there (the pointer shows a drop, not "no drop")."""
    handle = window.windowHandle()
    enter = QDragEnterEvent(at, ACTIONS, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(handle, enter)
    move = QDragMoveEvent(at, ACTIONS, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(handle, move)
    return enter.isAccepted() and move.isAccepted()


def leave(window: QWidget) -> None:
    QApplication.sendEvent(window.windowHandle(), QDragLeaveEvent())


def drop(window: QWidget, at: QPoint, mime: QMimeData) -> bool:
    """Drag ``mime`` to ``at`` and let go; whether the drop was taken. A drag that would not
    be taken is let go as the windowing system does then: it leaves, with no drop."""
    if not drag_over(window, at, mime):
        leave(window)
        return False
    event = QDropEvent(at, ACTIONS, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window.windowHandle(), event)
    return event.isAccepted()
