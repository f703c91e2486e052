"""Stamina, social and entertainment over the turns of a branch, painted with QPainter.

(QtCharts is not part of PySide6-Essentials, and three polylines do not need it.)
Clicking near a turn emits :attr:`StateChart.turn_clicked` with its index.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRect, QRectF, QSignalBlocker, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QMouseEvent, QPainter, QPaintEvent, QPen, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QSizePolicy, QToolTip, QWidget

from studio.core.state import STAT_NAMES, STATE_MAX, CharacterState
from studio.ui import palette
from studio.ui.episode.turn_strip import TurnStrip

LEFT = 34.0
AXIS_LABEL_HEIGHT = 14.0
"""The height of the 0, 50 and 100 labels; two closer than this would overlap."""
RIGHT = 12.0
TOP = 22.0
"""Room above the plot for the legend (drawn there, so it never covers the lines)."""
BOTTOM = 18.0
CHARACTER_COLORS = ("#ff9f6e", "#6ec6ff", "#c59bff", "#7ee08a", "#ffd36e", "#ff7ab6", "#9adbd0", "#d0b48a")
"""One colour per character in the per-character view (repeats after eight)."""
ACTING = "acting"
VIEW_TIP = "Show the acting character's three stats, or one line per character"
NO_CHARACTER_LINES_TIP = ("No line per character here: the characters share one state down this branch (the "
                          "story keeps one state per branch), or none acts in it yet. \"Acting character\" shows "
                          "the state.")


MODE_NAMES = {ACTING: "Acting character", **{stat: f"{palette.STAT_LABELS[stat]} per character" for stat in STAT_NAMES}}
"""The chart's views as its drop-down names them."""
MODE_SHORT_NAMES = {ACTING: "Acting", **{stat: f"{palette.STAT_LABELS[stat]} each" for stat in STAT_NAMES}}
"""The views' names in a drop-down too narrow for :data:`MODE_NAMES` (a small window)."""


MODE_BOX_MIN_W = 120
"""The view drop-down's narrowest width beside the legend (its text still reads); with less
room it gets a row of its own above the legend."""
LEGEND_H = TOP - 8
LEGEND_GAP = 12.0
"""Between two legend entries of a row."""
SWATCH_W = 13.0
"""A legend entry's colour swatch and the space after it."""
NAME_EMS = 18
"""A legend entry's text is elided past about this many characters (more names fit)."""
CHARACTER_LEGEND_ROWS = 2
"""The per-character legend's rows at most (the plot keeps its height); characters beyond
them are counted in a last entry ("+3 more") and named in the tooltip."""


STAT_NAME_MIN_CHARS = 4
"""The stats' legend shows while each name keeps about this many characters ("Stam…"). In a
chart narrower than that (a small window with the queue open) it drew its colours with no
names: it is left out there, the plot takes its row and the tooltip says which line is which."""
STAT_COLOR_WORDS = {"stamina": "green", "social": "blue", "entertainment": "orange"}
"""The stats' line colours in words (both schemes draw them in these hues)."""


MIN_PLOT_H = 60.0
"""The plot's least height: with less (a chart 90 pixels high whose legend took two rows under
its drop-down) the lines ran flat and only "0" read on the axis. The chart asks for it in its
minimum height, which grows with what sits above the plot at its width."""
STACKED_LEGEND_LEFT = 4.0
"""A narrow chart's legend, on its own row under the drop-down, starts at the chart's edge (not
past the axis' numbers) so that the three stats fit on one line."""


LABEL_GAP = 6.0
"""The least room between two turn labels under the plot."""
DOT_RADIUS = 2.5
CURRENT_DOT_RADIUS = 4.5
"""The current turn's dot, the largest drawn."""
LINE_WIDTH = 2.0


def _label_steps() -> Iterator[int]:
    """Label every turn, or every 2nd, 5th, 10th, 20th, 50th… (the numbers read as a scale)."""
    scale = 1
    while True:
        yield from (scale, 2 * scale, 5 * scale)
        scale *= 10


@dataclass(frozen=True)
class LegendEntry:
    """One legend entry as drawn: its text (elided to its room) and colour, and where."""

    text: str
    color: QColor | None
    """None for the count of characters left out, which has no swatch."""
    rect: QRectF


CHART_NAME = "State chart"


NO_STATE_YET = "not generated yet: no state until a take is made"
"""What the chart says of a turn without a finished take (it plots no point for it)."""


def spoken_chart(view: str, states: list[CharacterState], current: int, known: list[bool] | None = None) -> str:
    """The chart's accessible description: what its lines show (``view``: the drop-down's
    choice) and the acting character's state at the selected turn (``current``, 0: the start;
    ``known``: which turns have a state, a turn without a finished take has none)."""
    text = f"{view}, turn by turn along the branch."
    if known is not None and 0 <= current < len(known) and not known[current]:
        text += f" Turn {current}: {NO_STATE_YET}."
    elif 0 <= current < len(states):
        state = states[current]
        values = ", ".join(f"{palette.STAT_LABELS[name].lower()} {getattr(state, name)}" for name in STAT_NAMES)
        where = "At the start" if current == 0 else f"At turn {current}"
        text += f" {where}: {values}."
    return text


class StateChart(TurnStrip):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.states: list[CharacterState] = []
        self.known: list[bool] = []
        """Which turns of the branch have a state: the start, and each turn with a finished take
        (one never generated, queued or failed has no predicted state: no point is plotted)."""
        self.characters: dict[str, list[CharacterState]] = {}
        self.actors: list[str] = []
        """Who acts at each turn of the branch ("" for the start, or where none is known)."""
        self.mode = ACTING
        """``acting`` (three lines: the acting character's state) or a stat name (one line
        per character for that stat): the view shown."""
        self.chosen = ACTING
        """The view last asked for: a per-character view is shown only while there are
        characters' own states (a story with one state per branch has none), else ``acting``."""
        self.stacked = False  # the drop-down on its own row above the legend (a narrow chart)
        self.mode_box = QComboBox(self)
        self.mode_box.setAccessibleName("States shown")
        for mode, name in MODE_NAMES.items():
            self.mode_box.addItem(name, mode)
        self.mode_box.currentIndexChanged.connect(lambda _i: self.set_mode(str(self.mode_box.currentData())))
        self.mode_box.currentIndexChanged.connect(lambda _i: self._fit_mode_names())  # a longer name chosen
        # on Linux a drop-down's name read out is its current choice: the description says what it chooses
        self.mode_box.setAccessibleDescription("Which states the chart draws")
        self.setAccessibleName(CHART_NAME)
        self._offer_views()
        self.setMinimumHeight(int(TOP + BOTTOM + MIN_PLOT_H))  # and more where the legend takes more: resizeEvent
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMouseTracking(True)
        self.setToolTip("")

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(400, 110)

    def set_states(self, states: list[CharacterState], current: int, known: list[bool] | None = None) -> None:
        """``known``: which turns have a state (see :attr:`known`; None: every one)."""
        known = list(known) if known is not None else [True] * len(states)
        if states == self.states and current == self.current and known == self.known:
            return  # nothing to redraw (a take of another branch arrived, say)
        self.states = list(states)
        self.known = known
        self.current = current
        self._describe()
        self.update()

    def _describe(self) -> None:
        view = MODE_NAMES.get(str(self.mode_box.currentData()), self.mode_box.currentText())  # whole, narrow or not
        text = spoken_chart(view, self.states, self.current, self.known)
        if text != self.accessibleDescription():
            self.setAccessibleDescription(text)

    def set_character_states(self, series: dict[str, list[CharacterState]]) -> None:
        """Each character's state at every turn of the branch (for the per-character view)."""
        if series != self.characters:
            self.characters = {name: list(states) for name, states in series.items()}
            self._offer_views()
            self.update()

    def set_actors(self, names: list[str]) -> None:
        """The character acting at each turn of the branch (the start's ""): the acting view's
        line runs from one character's state to another's where the actor changes, and the
        tooltip says whose state a turn's values are."""
        self.actors = list(names)

    def set_mode(self, mode: str) -> None:
        if mode not in (ACTING, *STAT_NAMES):
            raise ValueError(f"unknown chart mode {mode!r}")
        self.chosen = mode
        self._show_mode()
        self.update()

    def _show_mode(self) -> None:
        """Show the chosen view, or the acting character's while there are no characters' own
        states (the drop-down said "Social per character" over the three stats' lines)."""
        self.mode = self.chosen if self.characters else ACTING
        index = self.mode_box.findData(self.mode)
        if index != self.mode_box.currentIndex():
            with QSignalBlocker(self.mode_box):  # the chosen view stays chosen
                self.mode_box.setCurrentIndex(index)
        self._describe()
        self._ask_for_plot_room()  # a per-character legend may take two rows

    def _offer_views(self) -> None:
        """Offer the per-character views only while there are characters' own states, saying
        why not where there are none."""
        model = self.mode_box.model()
        assert isinstance(model, QStandardItemModel)
        offered = bool(self.characters)
        for row in range(model.rowCount()):
            item = model.item(row)
            if item.data(Qt.ItemDataRole.UserRole) != ACTING:
                item.setEnabled(offered)
                item.setToolTip("" if offered else NO_CHARACTER_LINES_TIP)
        self.mode_box.setToolTip(VIEW_TIP if offered else f"{VIEW_TIP}.\n{NO_CHARACTER_LINES_TIP}")
        self._show_mode()

    def character_lines(self) -> dict[str, list[int]]:
        """The per-character view's lines: each character's value of the chosen stat per turn."""
        if self.mode == ACTING:
            return {}
        return {name: [getattr(state, self.mode) for state in states] for name, states in self.characters.items()}

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        super().resizeEvent(event)
        room = self.width() - RIGHT - self._legend_right() - 8
        self.stacked = room < MODE_BOX_MIN_W
        self._fit_mode_names()
        self.mode_box.setGeometry(self._mode_box_rect())
        self._ask_for_plot_room()

    def _fit_mode_names(self) -> None:
        """In a chart too narrow for the drop-down's names ("Acting character", "Stamina per
        character") it says them short ("Acting", "Stamina each"), whole, in the box and its list:
        cut, it read "Acting c" (a small window with the queue open)."""
        box = self.mode_box
        full = [MODE_NAMES[str(box.itemData(i))] for i in range(box.count())]
        metrics = box.fontMetrics()
        shown = [box.itemText(i) for i in range(box.count())]
        chrome = box.sizeHint().width() - max(metrics.horizontalAdvance(text) for text in shown)
        room = self.width() - RIGHT if self.stacked else self.width() - RIGHT - self._legend_right() - 8
        short = chrome + metrics.horizontalAdvance(full[max(0, box.currentIndex())]) > room
        for index, name in enumerate(full):
            text = MODE_SHORT_NAMES[str(box.itemData(index))] if short else name
            if box.itemText(index) != text:
                box.setItemText(index, text)

    def _ask_for_plot_room(self) -> None:
        """The chart's minimum height: what its drop-down, legend and turn labels take at this
        width, and :data:`MIN_PLOT_H` of plot (a fixed 90 pixels left a narrow chart, its legend
        under its drop-down, a flat line)."""
        wanted = int(self.plot_rect().top() + BOTTOM + MIN_PLOT_H + 0.999)
        if wanted != self.minimumHeight():
            self.setMinimumHeight(wanted)

    def _mode_box_rect(self) -> QRect:
        """A narrow chart narrows the drop-down beside the legend; narrower still, the drop-down
        takes a row of its own above the legend rather than cover it or cut its text to a stub."""
        hint = self.mode_box.sizeHint()
        room = self.width() - RIGHT - self._legend_right() - 8
        width = int(min(hint.width(), self.width() - RIGHT) if self.stacked else min(hint.width(), room))
        return QRect(int(self.width() - RIGHT - width), 0, max(1, width), hint.height())

    # -- geometry --------------------------------------------------------------------------

    def plot_rect(self) -> QRectF:
        legend = self.legend_rects()
        # no legend (too narrow to name the stats): the plot takes its row
        legend_bottom = max((rect.bottom() for rect in legend), default=self._legend_top())
        if self.stacked:  # the drop-down's row, then the legend's
            top = legend_bottom + 6.0
        else:  # the legend and the view's drop-down above
            top = max(TOP, self.mode_box.sizeHint().height() + 4.0, legend_bottom + 5.0)
        return QRectF(LEFT, top, max(1.0, self.width() - LEFT - RIGHT), max(1.0, self.height() - top - BOTTOM))

    @staticmethod
    def value_rect(plot: QRectF) -> QRectF:
        """Where the points lie in ``plot``: inset by the largest dot's radius, so that a dot at
        0 or 100, or at the first or last turn, stays inside the plot (it poked past its edge,
        over the turn labels and the legend)."""
        inset_x = min(CURRENT_DOT_RADIUS, plot.width() / 2)
        inset_y = min(CURRENT_DOT_RADIUS, plot.height() / 2)
        return plot.adjusted(inset_x, inset_y, -inset_x, -inset_y)

    def point_x(self, index: int, plot: QRectF | None = None) -> float:
        inner = self.value_rect(plot or self.plot_rect())
        if len(self.states) <= 1:
            return inner.center().x()
        return inner.left() + inner.width() * index / (len(self.states) - 1)

    def value_y(self, value: float, plot: QRectF | None = None) -> float:
        """Where a stat's ``value`` (0..100) lies in ``plot``."""
        inner = self.value_rect(plot or self.plot_rect())
        return inner.bottom() - inner.height() * value / STATE_MAX

    def point(self, index: int, stat: str, plot: QRectF | None = None) -> QPointF:
        plot = plot or self.plot_rect()
        return QPointF(self.point_x(index, plot), self.value_y(getattr(self.states[index], stat), plot))

    def axis_labels(self, plot: QRectF) -> list[tuple[int, float]]:
        """The values labelled on the axis and where: 0 and 100, then 50 where it does not
        overlap them (a chart some 20 pixels high, in a 720-pixel window, ran the three
        together)."""
        labels: list[tuple[int, float]] = []
        for value in (0, 100, 50):
            y = self.value_y(value, plot)
            if all(abs(y - other) >= AXIS_LABEL_HEIGHT for _value, other in labels):
                labels.append((value, y))
        return labels

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
        painter.setFont(self._label_font())
        for value in (0, 50, 100):
            y = self.value_y(value, plot)
            painter.setPen(QPen(palette.GRID_DOT.lighter(130), 1, Qt.PenStyle.DashLine if value == 50 else
                                Qt.PenStyle.SolidLine))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        painter.setPen(palette.TEXT_DIM)
        for value, y in self.axis_labels(plot):
            align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            painter.drawText(QRectF(0, y - AXIS_LABEL_HEIGHT / 2, LEFT - 6, AXIS_LABEL_HEIGHT), align, str(value))
        if not self.states:
            painter.setPen(palette.TEXT_DIM)
            painter.drawText(plot, Qt.AlignmentFlag.AlignCenter, "Select a turn to see its branch")
            return
        if 0 <= self.current < len(self.states):
            x = self.point_x(self.current, plot)
            band = QColor(palette.ACCENT)
            band.setAlpha(40)
            painter.fillRect(QRectF(x - 9, plot.top(), 18, plot.height()).intersected(plot), band)
        if 0 <= self.playing < len(self.states):
            painter.setPen(QPen(palette.TEXT, 1, Qt.PenStyle.DotLine))
            x = self.point_x(self.playing, plot)
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        lines = self.character_lines()
        if lines:
            self._paint_characters(painter, plot, lines)
            return
        shown = self.shown_turns()
        for stat in STAT_NAMES:
            points = [self.point(index, stat, plot) for index in shown]
            self._paint_line(painter, points, palette.STAT_COLORS[stat], shown)
        self._paint_turn_labels(painter, plot)
        self._paint_legend(painter, plot)

    def shown_turns(self) -> list[int]:
        """The turns (indexes along the branch) the chart plots a point for: those with a state."""
        return [index for index in range(len(self.states)) if index >= len(self.known) or self.known[index]]

    def _paint_line(self, painter: QPainter, points: list[QPointF], color: QColor,
                    turns: list[int] | None = None) -> None:
        """One stat's line with a dot per turn (the current turn's larger; ``turns``: the turn of
        each point, where not every turn has one); leaves the brush set."""
        painter.setPen(QPen(color, LINE_WIDTH))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolyline(points)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        for index, point in zip(turns if turns is not None else range(len(points)), points, strict=False):
            radius = CURRENT_DOT_RADIUS if index == self.current else DOT_RADIUS
            painter.drawEllipse(point, radius, radius)

    def _label_font(self) -> QFont:
        """The small font of the axis' numbers and the turn labels."""
        small = QFont(self.font())
        small.setPointSizeF(7.5)
        return small

    def turn_labels(self, plot: QRectF | None = None) -> list[tuple[str, QRectF]]:
        """The turn labels under the plot and where each is drawn: every turn's while they fit,
        else every 2nd, 5th, 10th… turn's (a long branch on a narrow chart ran them together)."""
        plot = plot or self.plot_rect()
        count = len(self.states)
        if not count:
            return []
        metrics = QFontMetricsF(self._label_font())
        room = max(metrics.horizontalAdvance("start"), metrics.horizontalAdvance(str(count - 1))) + LABEL_GAP
        spacing = plot.width() / (count - 1) if count > 1 else room
        step = next(s for s in _label_steps() if s * spacing >= room or s >= count)
        labels: list[tuple[str, QRectF]] = []
        for index in range(0, count, step):
            text = "start" if index == 0 else str(index)
            width = metrics.horizontalAdvance(text) + 2
            labels.append((text, QRectF(self.point_x(index, plot) - width / 2, plot.bottom() + 3, width, 14)))
        return labels

    def _paint_turn_labels(self, painter: QPainter, plot: QRectF) -> None:
        painter.setPen(palette.TEXT_DIM)
        for text, rect in self.turn_labels(plot):
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_characters(self, painter: QPainter, plot: QRectF, lines: dict[str, list[int]]) -> None:
        for number, values in enumerate(lines.values()):
            color = QColor(CHARACTER_COLORS[number % len(CHARACTER_COLORS)])
            shown = [i for i in self.shown_turns() if i < len(values)]
            points = [QPointF(self.point_x(i, plot), self.value_y(values[i], plot)) for i in shown]
            self._paint_line(painter, points, color, shown)
        self._paint_turn_labels(painter, plot)
        self._paint_legend(painter, plot)

    def _legend_items(self) -> list[tuple[str, QColor]]:
        """What the legend names: each character in the per-character view, else the stats."""
        lines = self.character_lines()
        if lines:
            return [(name, QColor(CHARACTER_COLORS[number % len(CHARACTER_COLORS)]))
                    for number, name in enumerate(lines)]
        return [(palette.STAT_LABELS[stat], palette.STAT_COLORS[stat]) for stat in STAT_NAMES]

    def _legend_top(self) -> float:
        return self.mode_box.sizeHint().height() + 2.0 if self.stacked else 3.0

    def legend(self) -> list[LegendEntry]:
        """The legend as drawn above the plot, in rows left of the view's drop-down (below it
        when stacked), so that it never runs under the drop-down or off the chart: a name
        longer than a row is elided, and characters beyond :data:`CHARACTER_LEGEND_ROWS`
        rows are counted in a last entry."""
        items = self._legend_items()
        metrics = self.fontMetrics()
        right = self.width() - RIGHT if self.stacked else self._mode_box_rect().left() - 8.0
        left = STACKED_LEGEND_LEFT if self.stacked else LEFT
        room = max(1.0, min(right - left - SWATCH_W, NAME_EMS * metrics.averageCharWidth()))
        per_character = bool(self.character_lines())
        if not per_character:  # the three stats on one line (two left the plot a flat line)
            room = min(room, self._one_row_room([name for name, _color in items], right - left))
            if room < STAT_NAME_MIN_CHARS * metrics.averageCharWidth():
                return []  # colours with no names say nothing: the tooltip names them (see tooltip_text)
        rows = CHARACTER_LEGEND_ROWS if per_character else 1
        top = self._legend_top()
        placed: list[LegendEntry] = []
        row, x = 0, left
        for index, (name, color) in enumerate(items):
            text = metrics.elidedText(name, Qt.TextElideMode.ElideRight, int(max(1.0, room)))
            width = SWATCH_W + metrics.horizontalAdvance(text)
            if x > left and x + width > right:
                row, x = row + 1, left
            if row >= rows:
                return self._with_count(placed, len(items) - index, right)
            placed.append(LegendEntry(text, color, QRectF(x, top + row * LEGEND_H, width, LEGEND_H)))
            x += width + LEGEND_GAP
        return placed

    def _one_row_room(self, names: list[str], width: float) -> float:
        """The widest a name may be drawn for all of ``names`` to fit one row ``width`` wide: the
        longest are cut first ("Stami…", "Social", "Fun" rather than "Sta…", "So…", "Fun")."""
        metrics = self.fontMetrics()
        text_room = width - len(names) * SWATCH_W - LEGEND_GAP * (len(names) - 1)
        widths = sorted(metrics.horizontalAdvance(name) for name in names)
        for count, narrow in enumerate(widths):
            wider = len(widths) - count  # the names as wide as this one or wider share what is left
            cap = (text_room - sum(widths[:count])) / wider
            if cap <= narrow:
                return max(1.0, cap)
        return float(widths[-1]) if widths else width

    def _with_count(self, placed: list[LegendEntry], left_out: int, right: float) -> list[LegendEntry]:
        """``placed`` and a last entry "+N more" after it, in place of the last entries that
        leave it no room (each counted in N)."""
        metrics = self.fontMetrics()

        def count(x: float, y: float) -> LegendEntry:
            text = f"+{left_out} more"
            return LegendEntry(text, None, QRectF(x, y, metrics.horizontalAdvance(text), LEGEND_H))

        while placed:
            last = placed[-1].rect
            after = count(last.right() + LEGEND_GAP, last.top())
            if after.rect.right() <= right:
                return [*placed, after]
            placed.pop()
            left_out += 1
            instead = count(last.left(), last.top())
            if instead.rect.right() <= right or last.left() <= LEFT:
                return [*placed, instead]
        return [count(STACKED_LEGEND_LEFT if self.stacked else LEFT, self._legend_top())]

    def legend_rects(self) -> list[QRectF]:
        """Where each legend entry (swatch and label) is drawn: above the plot."""
        return [entry.rect for entry in self.legend()]

    def _legend_right(self) -> float:
        metrics = self.fontMetrics()
        widths = [13 + metrics.horizontalAdvance(palette.STAT_LABELS[stat]) for stat in STAT_NAMES]
        return LEFT + sum(widths) + 12 * (len(widths) - 1)

    def _paint_legend(self, painter: QPainter, plot: QRectF) -> None:
        painter.setFont(self.font())
        for entry in self.legend():
            rect = entry.rect
            if entry.color is not None:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(entry.color)
                painter.drawRoundedRect(QRectF(rect.left(), rect.center().y() - 2, 10, 4), 2, 2)
                rect = rect.adjusted(SWATCH_W, 0, 0, 0)
            painter.setPen(palette.TEXT_DIM)
            painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, entry.text)

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
        if index < len(self.known) and not self.known[index]:
            return f"{turn}: {NO_STATE_YET}"
        actor = self.actors[index].strip() if 0 < index < len(self.actors) else ""
        lines = self.character_lines()
        if lines and actor:
            turn += f" (\u2068{actor}\u2069 acts)"
        elif actor:
            turn += f" · \u2068{actor}\u2069"
        if lines:
            # each name isolated (FSI ... PDI): a right-to-left name took its number, or the next
            # name, into its own run, so "Aki 50" read as if 50 were the Arabic name's
            values = ", ".join(f"\u2068{name}\u2069 {series[index]}" for name, series in lines.items()
                               if index < len(series))
            return f"{turn} · {palette.STAT_LABELS[self.mode]}: {values}"
        state = self.states[index]
        if not self.legend():  # the legend left out: the tooltip says which line is which
            return (f"{turn}: stamina {state.stamina} ({STAT_COLOR_WORDS['stamina']}), social {state.social} "
                    f"({STAT_COLOR_WORDS['social']}), fun {state.entertainment} "
                    f"({STAT_COLOR_WORDS['entertainment']})")
        return f"{turn}: stamina {state.stamina}, social {state.social}, fun {state.entertainment}"
