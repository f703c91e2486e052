"""The state after a turn: three bars with how far the turn moved each, and the motion level."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from studio.core.state import STAT_NAMES, STATE_MAX, CharacterState, StateChange
from studio.ui import palette

ROW = 20.0
"""The least height of a row (pixels); a larger font makes rows taller (see :meth:`StatePanel.geometry`)."""
LABEL_W = 58.0
VALUE_W = 70.0
"""The least widths of the labels' and the values' columns; a larger font widens them."""
WIDEST_VALUE = "100  (+25)"
"""The widest value text a bar can have (a stat is 0..100 and a turn moves it by 5 x at most 5)."""
PAD = 6.0
"""Room around a text inside its column."""


@dataclass(frozen=True)
class PanelGeometry:
    """Where the panel's texts go, sized from its font: a larger font (the desktop's text scale)
    gets taller rows and wider columns, so that no label or value is cut."""

    row: float
    label_w: float
    value_w: float
    level_w: float

    def height(self) -> int:
        return int(self.row * 4 + 6)


class StatePanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state: CharacterState | None = None
        self.change: StateChange | None = None
        self.motion_level: int | None = None
        self.character = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self.geometry_for_font().height())

    def geometry_for_font(self) -> PanelGeometry:
        """The rows and columns the panel's font needs (never less than the defaults)."""
        metrics = self.fontMetrics()
        labels = [*palette.STAT_LABELS.values(), "Motion"]
        return PanelGeometry(
            row=max(ROW, float(metrics.height() + 4)),
            label_w=max(LABEL_W, max(metrics.horizontalAdvance(text) for text in labels) + PAD),
            value_w=max(VALUE_W, metrics.horizontalAdvance(WIDEST_VALUE) + PAD),
            level_w=metrics.horizontalAdvance("level 5 of 5") + PAD)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        """A new font (the application's, or the panel's own) resizes the rows."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.ApplicationFontChange):
            self.setFixedHeight(self.geometry_for_font().height())
            self.updateGeometry()
            self.update()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(300, self.geometry_for_font().height())

    def text_places(self) -> list[tuple[str, QRectF]]:
        """Each text the panel draws and the rectangle it is drawn in (see :meth:`paintEvent`)."""
        g = self.geometry_for_font()
        bar_w = max(20.0, self.width() - g.label_w - g.value_w - 8)
        places = []
        for index, name in enumerate(STAT_NAMES):
            y = 2 + index * g.row
            places.append((palette.STAT_LABELS[name], QRectF(0, y, g.label_w, g.row)))
            if self.state is not None:
                places.append((self.value_text(name), QRectF(g.label_w + bar_w + 8, y, g.value_w, g.row)))
        y = 2 + 3 * g.row
        places.append(("Motion", QRectF(0, y, g.label_w, g.row)))
        level = "—" if self.motion_level is None else f"level {self.motion_level} of 5"
        places.append((level, QRectF(g.label_w + 66, y, g.level_w, g.row)))
        if self.character:
            left = g.label_w + 66 + g.level_w + 4
            room = max(0.0, self.width() - left)
            # right-aligned in too narrow a place, the start was cut ("ate"): shortened with "…"
            # instead, or left out where not even a letter and "…" fit (the tooltip says whose)
            whose = self.fontMetrics().elidedText(f"{self.character}'s state", Qt.TextElideMode.ElideRight,
                                                  int(room))
            if whose and whose != "…":
                places.append((whose, QRectF(left, y, room, g.row)))
        return places

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
        g = self.geometry_for_font()
        bar_w = max(20.0, self.width() - g.label_w - g.value_w - 8)
        texts = iter(self.text_places())
        for index, name in enumerate(STAT_NAMES):
            y = 2 + index * g.row
            painter.setPen(palette.TEXT_DIM)
            label, place = next(texts)
            painter.drawText(place, Qt.AlignmentFlag.AlignVCenter, label)
            bar_h = max(8.0, g.row - 12)
            track = QRectF(g.label_w, y + (g.row - bar_h) / 2, bar_w, bar_h)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(palette.TRACK)
            painter.drawRoundedRect(track, 3, 3)
            if self.state is not None:
                value = getattr(self.state, name)
                fill = QRectF(track.left(), track.top(), track.width() * value / STATE_MAX, track.height())
                painter.setBrush(palette.STAT_COLORS[name])
                painter.drawRoundedRect(fill, 3, 3)
                painter.setPen(self.value_colour(name))
                text, place = next(texts)
                painter.drawText(place, Qt.AlignmentFlag.AlignVCenter, text)
        y = 2 + 3 * g.row
        painter.setPen(palette.TEXT_DIM)
        label, place = next(texts)
        painter.drawText(place, Qt.AlignmentFlag.AlignVCenter, label)
        painter.setPen(Qt.PenStyle.NoPen)
        for i in range(5):
            active = self.motion_level is not None and i < self.motion_level
            painter.setBrush(palette.ACCENT if active else palette.TRACK)
            h = 6 + i * 2.5
            painter.drawRoundedRect(QRectF(g.label_w + i * 12, y + g.row - 3 - h, 8, h), 2, 2)
        painter.setPen(palette.TEXT)
        level, place = next(texts)
        painter.drawText(place, Qt.AlignmentFlag.AlignVCenter, level)
        whose = next(texts, None)
        if whose is not None:
            painter.setPen(palette.TEXT_DIM)
            painter.drawText(whose[1], Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, whose[0])
