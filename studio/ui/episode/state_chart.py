"""Stamina, social and entertainment over the turns of a branch, painted with QPainter.

(QtCharts is not part of PySide6-Essentials, and three polylines do not need it.)
Clicking near a turn emits :attr:`StateChart.turn_clicked` with its index.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QComboBox, QSizePolicy, QToolTip, QWidget

from studio.core.state import STAT_NAMES, STATE_MAX, CharacterState
from studio.ui import palette
from studio.ui.episode.turn_strip import TurnStrip

LEFT = 34.0
RIGHT = 12.0
TOP = 22.0
"""Room above the plot for the legend (drawn there, so it never covers the lines)."""
BOTTOM = 18.0
CHARACTER_COLORS = ("#ff9f6e", "#6ec6ff", "#c59bff", "#7ee08a", "#ffd36e", "#ff7ab6", "#9adbd0", "#d0b48a")
"""One colour per character in the per-character view (repeats after eight)."""
ACTING = "acting"


MODE_BOX_MIN_W = 120
"""The view drop-down's narrowest width beside the legend (its text still reads); with less
room it gets a row of its own above the legend."""
LEGEND_H = TOP - 8


class StateChart(TurnStrip):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.states: list[CharacterState] = []
        self.characters: dict[str, list[CharacterState]] = {}
        self.mode = ACTING
        """``acting`` (three lines: the acting character's state) or a stat name (one line
        per character for that stat)."""
        self.stacked = False  # the drop-down on its own row above the legend (a narrow chart)
        self.mode_box = QComboBox(self)
        self.mode_box.addItem("Acting character", ACTING)
        for stat in STAT_NAMES:
            self.mode_box.addItem(f"{palette.STAT_LABELS[stat]} per character", stat)
        self.mode_box.setToolTip("Show the acting character's three stats, or one line per character")
        self.mode_box.currentIndexChanged.connect(lambda _i: self.set_mode(str(self.mode_box.currentData())))
        self.setMinimumHeight(90)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMouseTracking(True)
        self.setToolTip("")

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(400, 110)

    def set_states(self, states: list[CharacterState], current: int) -> None:
        if states == self.states and current == self.current:
            return  # nothing to redraw (a take of another branch arrived, say)
        self.states = list(states)
        self.current = current
        self.update()

    def set_character_states(self, series: dict[str, list[CharacterState]]) -> None:
        """Each character's state at every turn of the branch (for the per-character view)."""
        if series != self.characters:
            self.characters = {name: list(states) for name, states in series.items()}
            self.update()

    def set_mode(self, mode: str) -> None:
        if mode not in (ACTING, *STAT_NAMES):
            raise ValueError(f"unknown chart mode {mode!r}")
        self.mode = mode
        index = self.mode_box.findData(mode)
        if index != self.mode_box.currentIndex():
            self.mode_box.setCurrentIndex(index)
        self.update()

    def character_lines(self) -> dict[str, list[int]]:
        """The per-character view's lines: each character's value of the chosen stat per turn."""
        if self.mode == ACTING:
            return {}
        return {name: [getattr(state, self.mode) for state in states] for name, states in self.characters.items()}

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        super().resizeEvent(event)
        hint = self.mode_box.sizeHint()
        # A narrow chart narrows the drop-down beside the legend; narrower still, the drop-down
        # takes a row of its own above the legend rather than cover it or cut its text to a stub.
        room = self.width() - RIGHT - self._legend_right() - 8
        self.stacked = room < MODE_BOX_MIN_W
        width = int(min(hint.width(), self.width() - RIGHT) if self.stacked else min(hint.width(), room))
        self.mode_box.setGeometry(int(self.width() - RIGHT - width), 0, max(1, width), hint.height())

    # -- geometry --------------------------------------------------------------------------

    def plot_rect(self) -> QRectF:
        if self.stacked:  # the drop-down's row, then the legend's
            top = self.mode_box.sizeHint().height() + 2.0 + LEGEND_H + 6.0
        else:
            top = max(TOP, self.mode_box.sizeHint().height() + 4.0)  # the legend and the view's drop-down above
        return QRectF(LEFT, top, max(1.0, self.width() - LEFT - RIGHT), max(1.0, self.height() - top - BOTTOM))

    def point_x(self, index: int, plot: QRectF | None = None) -> float:
        plot = plot or self.plot_rect()
        if len(self.states) <= 1:
            return plot.center().x()
        return plot.left() + plot.width() * index / (len(self.states) - 1)

    def point(self, index: int, stat: str, plot: QRectF | None = None) -> QPointF:
        plot = plot or self.plot_rect()
        value = getattr(self.states[index], stat) / STATE_MAX
        return QPointF(self.point_x(index, plot), plot.bottom() - plot.height() * value)

    def index_at(self, x: float) -> int:
        if not self.states:
            return -1
        return min(range(len(self.states)), key=lambda i: abs(self.point_x(i) - x))

    # -- painting ------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.fillRect(self.rect(), palette.BACKGROUND)
        plot = self.plot_rect()
        small = QFont(self.font())
        small.setPointSizeF(7.5)
        painter.setFont(small)
        for value in (0, 50, 100):
            y = plot.bottom() - plot.height() * value / STATE_MAX
            painter.setPen(QPen(palette.GRID_DOT.lighter(130), 1, Qt.PenStyle.DashLine if value == 50 else
                                Qt.PenStyle.SolidLine))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.setPen(palette.TEXT_DIM)
            align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            painter.drawText(QRectF(0, y - 7, LEFT - 6, 14), align, str(value))
        if not self.states:
            painter.setPen(palette.TEXT_DIM)
            painter.drawText(plot, Qt.AlignmentFlag.AlignCenter, "Select a turn to see its branch")
            return
        if 0 <= self.current < len(self.states):
            x = self.point_x(self.current, plot)
            band = QColor(palette.ACCENT)
            band.setAlpha(40)
            painter.fillRect(QRectF(x - 9, plot.top() - 4, 18, plot.height() + 8), band)
        if 0 <= self.playing < len(self.states):
            painter.setPen(QPen(palette.TEXT, 1, Qt.PenStyle.DotLine))
            x = self.point_x(self.playing, plot)
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        lines = self.character_lines()
        if lines:
            self._paint_characters(painter, plot, lines)
            return
        for stat in STAT_NAMES:
            points = [self.point(index, stat, plot) for index in range(len(self.states))]
            self._paint_line(painter, points, palette.STAT_COLORS[stat])
        self._paint_turn_labels(painter, plot)
        self._paint_legend(painter, plot)

    def _paint_line(self, painter: QPainter, points: list[QPointF], color: QColor) -> None:
        """One stat's line with a dot per turn (the current turn's larger); leaves the brush set."""
        painter.setPen(QPen(color, 2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolyline(points)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        for index, point in enumerate(points):
            radius = 4.5 if index == self.current else 2.5
            painter.drawEllipse(point, radius, radius)

    def _paint_turn_labels(self, painter: QPainter, plot: QRectF) -> None:
        painter.setPen(palette.TEXT_DIM)
        step = max(1, len(self.states) // 12)
        for index in range(0, len(self.states), step):
            label = "start" if index == 0 else str(index)
            painter.drawText(QRectF(self.point_x(index, plot) - 16, plot.bottom() + 3, 32, 14),
                             Qt.AlignmentFlag.AlignCenter, label)

    def _paint_characters(self, painter: QPainter, plot: QRectF, lines: dict[str, list[int]]) -> None:
        legend_x = plot.left() + 6
        for number, (name, values) in enumerate(lines.items()):
            color = QColor(CHARACTER_COLORS[number % len(CHARACTER_COLORS)])
            points = [QPointF(self.point_x(i, plot), plot.bottom() - plot.height() * v / STATE_MAX)
                      for i, v in enumerate(values[: len(self.states)])]
            self._paint_line(painter, points, color)
            legend_y = plot.top() / 2
            painter.drawRoundedRect(QRectF(legend_x, legend_y - 2, 10, 4), 2, 2)
            painter.setPen(palette.TEXT_DIM)
            painter.drawText(QPointF(legend_x + 13, legend_y + 4), name)
            legend_x += 20 + painter.fontMetrics().horizontalAdvance(name)
        self._paint_turn_labels(painter, plot)

    def legend_rects(self) -> list[QRectF]:
        """Where each stat's legend entry (swatch and label) is drawn: above the plot."""
        metrics = self.fontMetrics()
        rects = []
        x = LEFT
        y = self.mode_box.sizeHint().height() + 2.0 if self.stacked else 3.0
        for stat in STAT_NAMES:
            width = 13 + metrics.horizontalAdvance(palette.STAT_LABELS[stat])
            rects.append(QRectF(x, y, width, LEGEND_H))
            x += width + 12
        return rects

    def _legend_right(self) -> float:
        metrics = self.fontMetrics()
        widths = [13 + metrics.horizontalAdvance(palette.STAT_LABELS[stat]) for stat in STAT_NAMES]
        return LEFT + sum(widths) + 12 * (len(widths) - 1)

    def _paint_legend(self, painter: QPainter, plot: QRectF) -> None:
        painter.setFont(self.font())
        for stat, rect in zip(STAT_NAMES, self.legend_rects(), strict=True):
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(palette.STAT_COLORS[stat])
            painter.drawRoundedRect(QRectF(rect.left(), rect.center().y() - 2, 10, 4), 2, 2)
            painter.setPen(palette.TEXT_DIM)
            painter.drawText(rect.adjusted(13, 0, 0, 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             palette.STAT_LABELS[stat])

    # -- interaction -----------------------------------------------------------------------

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        index = self.index_at(event.position().x())
        if index < 0:
            return
        QToolTip.showText(event.globalPosition().toPoint(), self.tooltip_text(index), self)

    def tooltip_text(self, index: int) -> str:
        """What hovering turn ``index`` says: the values of the lines drawn there (in the
        per-character view, each character's value of its stat, not the acting one's three)."""
        turn = "Start" if index == 0 else f"Turn {index}"
        lines = self.character_lines()
        if lines:
            values = ", ".join(f"{name} {series[index]}" for name, series in lines.items() if index < len(series))
            return f"{turn} · {palette.STAT_LABELS[self.mode]}: {values}"
        state = self.states[index]
        return f"{turn}: stamina {state.stamina}, social {state.social}, fun {state.entertainment}"
