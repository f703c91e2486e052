"""Spin boxes and drop-downs that a mouse wheel changes only while they have the keyboard focus.

Qt's own change their value under a wheel passing over them: scrolling the inspector over a
turn's duration, a line's speaker or the time of day changed the turn silently (the change
was saved as the author moved on). Without the focus, the wheel scrolls the inspector.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QSpinBox, QWidget


class _FocusWheel:
    """Mixed in before a Qt input class: the wheel changes the value only with the focus, and
    the focus comes from a click or Tab, not from a wheel passing over."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)  # type: ignore[call-arg]
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # type: ignore[attr-defined]

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        if self.hasFocus():  # type: ignore[attr-defined]
            super().wheelEvent(event)  # type: ignore[misc]
        else:
            event.ignore()  # an ignored wheel event goes on to the parent: the scroll area scrolls


class FocusWheelSpinBox(_FocusWheel, QSpinBox):
    pass


class FocusWheelDoubleSpinBox(_FocusWheel, QDoubleSpinBox):
    pass


class FocusWheelComboBox(_FocusWheel, QComboBox):
    pass
