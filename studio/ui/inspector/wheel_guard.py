"""Spin boxes and drop-downs that a mouse wheel changes only while they have the keyboard focus.

Qt's own change their value under a wheel passing over them: scrolling the inspector over a
turn's duration, a line's speaker or the time of day changed the turn silently (the change
was saved as the author moved on). Without the focus, the wheel scrolls the inspector.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QWheelEvent
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
    """A drop-down that can also be locked (see :meth:`set_locked`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.locked_reason: str | None = None
        self._tip = ""

    def set_locked(self, reason: str | None) -> None:
        """Keep the value from changing (``reason`` says why, as the tooltip) while its text can
        still be selected and copied; None unlocks it."""
        if reason is not None and self.locked_reason is None:
            self._tip = self.toolTip()
        self.locked_reason = reason
        edit = self.lineEdit()
        if edit is not None:
            edit.setReadOnly(reason is not None)
        self.setToolTip(reason if reason is not None else self._tip)

    def showPopup(self) -> None:  # noqa: N802 - Qt's name
        if self.locked_reason is None:
            super().showPopup()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        if self.locked_reason is None:
            super().wheelEvent(event)
        else:
            event.ignore()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        """Locked, the keys that would pick another choice do nothing (copying still works)."""
        picks = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_Home,
                 Qt.Key.Key_End, Qt.Key.Key_F4)
        if self.locked_reason is not None and event.key() in picks:
            event.accept()
            return
        super().keyPressEvent(event)
