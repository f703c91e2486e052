"""The state after a turn: three bars with how far the turn moved each, and the motion level."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from studio.core.state import STAT_NAMES, STATE_MAX, CharacterState, StateChange
from studio.ui import palette

ROW = 20.0
LABEL_W = 58.0
VALUE_W = 70.0


class StatePanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state: CharacterState | None = None
        self.change: StateChange | None = None
        self.motion_level: int | None = None
        self.character = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(int(ROW * 4 + 6))

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(300, int(ROW * 4 + 6))

    def set_values(self, state: CharacterState | None, change: StateChange | None, motion_level: int | None) -> None:
        """Show ``state`` with ``change`` beside each value: how far the turn actually moved it
        (:func:`studio.core.state.turn_change`), so "Stamina 0 (-5)" from 5, and "(+0)" where a
        stat already at 0 or 100 could move no further; None: no change is shown."""
        if (state, change, motion_level) != (self.state, self.change, self.motion_level):
            self.state, self.change, self.motion_level = state, change, motion_level
            self.update()

    def value_text(self, name: str) -> str:
        """What is written right of stat ``name``'s bar: "40  (-10)"; "" with no state."""
        if self.state is None:
            return ""
        text = f"{getattr(self.state, name)}"
        if self.change is not None:
            text += f"  ({getattr(self.change, name):+d})"
        return text

    def value_colour(self, name: str) -> QColor:
        """The colour of :meth:`value_text`: positive, negative, or plain where nothing moved."""
        moved = getattr(self.change, name) if self.change is not None else 0
        return palette.TEXT if moved == 0 else palette.POSITIVE if moved > 0 else palette.NEGATIVE

    def set_character(self, name: str) -> None:
        """Whose state the bars show (the turn's acting character)."""
        if name != self.character:
            self.character = name
            self.setToolTip(f"{name}'s state after this turn" if name else "")
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        bar_w = max(20.0, self.width() - LABEL_W - VALUE_W - 8)
        for index, name in enumerate(STAT_NAMES):
            y = 2 + index * ROW
            painter.setPen(palette.TEXT_DIM)
            painter.drawText(QRectF(0, y, LABEL_W, ROW), Qt.AlignmentFlag.AlignVCenter, palette.STAT_LABELS[name])
            track = QRectF(LABEL_W, y + 6, bar_w, ROW - 12)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(palette.TRACK)
            painter.drawRoundedRect(track, 3, 3)
            if self.state is not None:
                value = getattr(self.state, name)
                fill = QRectF(track.left(), track.top(), track.width() * value / STATE_MAX, track.height())
                painter.setBrush(palette.STAT_COLORS[name])
                painter.drawRoundedRect(fill, 3, 3)
                painter.setPen(self.value_colour(name))
                painter.drawText(QRectF(LABEL_W + bar_w + 8, y, VALUE_W, ROW), Qt.AlignmentFlag.AlignVCenter,
                                 self.value_text(name))
        y = 2 + 3 * ROW
        painter.setPen(palette.TEXT_DIM)
        painter.drawText(QRectF(0, y, LABEL_W, ROW), Qt.AlignmentFlag.AlignVCenter, "Motion")
        painter.setPen(Qt.PenStyle.NoPen)
        for i in range(5):
            active = self.motion_level is not None and i < self.motion_level
            painter.setBrush(palette.ACCENT if active else palette.TRACK)
            h = 6 + i * 2.5
            painter.drawRoundedRect(QRectF(LABEL_W + i * 12, y + ROW - 3 - h, 8, h), 2, 2)
        painter.setPen(palette.TEXT)
        level = "—" if self.motion_level is None else f"level {self.motion_level} of 5"
        painter.drawText(QRectF(LABEL_W + 66, y, 120, ROW), Qt.AlignmentFlag.AlignVCenter, level)
        if self.character:
            painter.setPen(palette.TEXT_DIM)
            painter.drawText(QRectF(LABEL_W + 190, y, max(0.0, self.width() - LABEL_W - 190), ROW),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, f"{self.character}'s state")
