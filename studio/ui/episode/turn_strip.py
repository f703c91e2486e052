"""What the branch views share: a current turn, a playing turn, and a click on a turn."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QWidget


class TurnStrip(QWidget):
    """A widget that lays the turns of a branch along x; subclasses give :meth:`index_at`."""

    turn_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.current = -1
        self.playing = -1

    def index_at(self, x: float) -> int:
        raise NotImplementedError

    def set_current(self, index: int) -> None:
        if index != self.current:
            self.current = index
            self.update()

    def set_playing(self, index: int) -> None:
        if index != self.playing:
            self.playing = index
            self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        index = self.index_at(event.position().x())
        if index >= 0:
            self.turn_clicked.emit(index)
