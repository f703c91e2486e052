"""Spin boxes and drop-downs that a mouse wheel changes only while they have the keyboard focus.

Qt's own change their value under a wheel passing over them: scrolling the inspector over a
turn's duration, a line's speaker or the time of day changed the turn silently (the change
was saved as the author moved on). Without the focus, the wheel scrolls the inspector.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QSpinBox, QWidget


def _takes_wheel(widget: QWidget, event: QWheelEvent) -> bool:
    """Whether ``widget`` may use ``event``; if not, the event is left to its parents."""
    if widget.hasFocus():
        return True
    event.ignore()  # an ignored wheel event goes on to the parent: the scroll area scrolls
    return False


class FocusWheelSpinBox(QSpinBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a wheel passing over gives no focus

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        if _takes_wheel(self, event):
            super().wheelEvent(event)


class FocusWheelDoubleSpinBox(QDoubleSpinBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        if _takes_wheel(self, event):
            super().wheelEvent(event)


class FocusWheelComboBox(QComboBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        if _takes_wheel(self, event):
            super().wheelEvent(event)
