"""A node's takes side by side (2 to 4 at once), each playing its clip; pick one.

Tiles are rebuilt only when the node's takes change; a tile's clip is decoded off the GUI
thread by the shared clip cache and loops while it is visible.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.core.model import Take, TakeStatus
from studio.core.state import CharacterState
from studio.ui import palette
from studio.ui.elided_label import ElidedLabel
from studio.ui.inspector.missing_clip import CLIP_MISSING_TEXT, CLIP_MISSING_TIP, clip_missing
from studio.ui.inspector.take_start import TakeStart
from studio.ui.media_cache import ClipCache
from studio.ui.node_summary import cut_to_chars
from studio.ui.player import Player
from studio.ui.tab_order import widgets_in_reading_order
from studio.ui.window_actions import COMPARE_TAKES_KEY, take_key_hint

MIN_TILE_W = 72
"""Narrow enough that four tiles fit side by side in the inspector's smallest width."""
TILE_SPACING = 6


ENGINE_NAME_CHARS = 16
"""An engine's name on a take tile is cut here (a name another program stored may be long)."""


def take_caption(index: int, take: Take, *, with_engine: bool = False) -> str:
    """``Take 2``, or ``Take 2 · mini`` with the engine that made it (see :func:`engines_differ`)."""
    caption = f"Take {index + 1}"
    engine = " ".join(take.engine.split())
    return f"{caption} · {cut_to_chars(engine, ENGINE_NAME_CHARS)}" if with_engine and engine else caption


def engines_differ(takes: list[Take], current: str) -> bool:
    """Whether a turn's takes need their engine named: made by more than one engine, or by
    another engine than ``current`` (the one new takes use; "" when not known). After the
    engine changed mid-branch, which take came from which engine was only in a tooltip."""
    engines = {take.engine for take in takes}
    return len(engines) > 1 or (bool(current) and bool(engines - {current}))


def state_line(take: Take, state: CharacterState | None) -> str:
    """``level 3 · Stamina 55 · Social 50 · Fun 45`` (the state after this take)."""
    parts = [f"level {take.motion_level}"] if take.status == TakeStatus.DONE else []
    if state is not None and take.status == TakeStatus.DONE:
        parts += [f"{palette.STAT_LABELS[name]} {value}" for name, value in state.as_dict().items()]
    return " · ".join(parts)


BUTTON_PADDING = 26
"""The push button's padding and border, left and right together (studio.qss: 12 px + 1 px each)."""

FAILED_TAKE_CHARS = 100
"""A failed take's error is cut here in its tile (the Take section below shows it whole)."""


def failed_take_text(error: str) -> str:
    """What a failed take's tile says in place of its clip: that the generation failed, the
    error's first line (cut between characters, with an ellipsis: it was cut at 80 code
    points mid-word), and how to try again, as the turn's card says."""
    first = error.strip().splitlines()[0] if error.strip() else ""
    said = f"Generation failed: {cut_to_chars(first, FAILED_TAKE_CHARS)}" if first else "Generation failed"
    return f"{said}\nRe-roll (R) to try again."


class TakeTile(QFrame):
    chosen = Signal(str)
    focused = Signal(str)

    def __init__(self, index: int, take: Take, selected: bool, clips: ClipCache, resolve: Callable[[str], str],
                 parent: QWidget | None = None, state: CharacterState | None = None,
                 start: CharacterState | None = None) -> None:
        """``state``: where the take leads now; ``start``: where its turn starts now (set beside
        the start the take was made from, see :class:`TakeStart`)."""
        super().__init__(parent)
        self.index = index
        self.take = take
        self.selected = selected
        self.state = state
        self.start = start
        self.setObjectName("takeTileSelected" if selected else "takeTile")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.player = Player(clips, self, compact=True)
        self.player.setMinimumHeight(110)
        self.engine_shown = False
        """Whether the caption names the take's engine (see :meth:`show_engine`)."""
        self.caption = QLabel(take_caption(index, take), self)
        self.caption.setObjectName("tileCaption")
        self.caption.setWordWrap(True)  # "Take 12 · sketch" in a narrow tile (four side by side)
        self.caption.setToolTip(f"seed {take.seed} · made by the {take.engine} engine")
        badges = []
        if take.stale:
            badges.append("stale")
        if take.status != TakeStatus.DONE:
            badges.append(take.status.value)
        self.badge = QLabel(" · ".join(badges), self)
        self.badge.setObjectName("staleBadge" if take.stale else "dimLabel")
        self.badge.setVisible(bool(badges))  # an empty badge would still paint its box
        self.state_label = QLabel(state_line(take, state), self)
        self.state_label.setObjectName("dimLabel")
        self.state_label.setWordWrap(True)
        # where the take started, always in the tooltip; in view where it is not the turn's start now
        self.start_label = QLabel(self)
        self.start_label.setObjectName("staleBadge")
        self.start_label.setWordWrap(True)
        self._show_start()
        self.clips = clips
        self.missing = False
        self.path = resolve(take.clip_path) if take.clip_path else ""
        self.read_only_reason: str | None = None
        """Why no take can be chosen (see :meth:`set_read_only`); None when one can."""
        self.use_button = QPushButton(self)
        self.use_button.clicked.connect(self._use)
        self.update_use()
        # the player's load of this clip fails (file gone or damaged) or succeeds (put back)
        clips.failed.connect(self._recheck)
        clips.ready.connect(self._recheck)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        layout.addWidget(self.player, 1)
        row = QHBoxLayout()
        row.addWidget(self.caption)
        row.addStretch(1)
        row.addWidget(self.badge)
        layout.addLayout(row)
        layout.addWidget(self.state_label)
        layout.addWidget(self.start_label)
        layout.addWidget(self.use_button)
        if take.clip_path:
            if self.path:
                self.player.set_clips([self.path], autoplay=True)
        elif take.error:
            self.player.view.set_image(None, failed_take_text(take.error))

    def show_engine(self, shown: bool) -> None:
        """Name the take's engine in the caption, or not."""
        if shown != self.engine_shown:
            self.engine_shown = shown
            self.caption.setText(take_caption(self.index, self.take, with_engine=shown))

    @property
    def clip_missing(self) -> bool:
        """Whether this finished take's clip can't be played, as the compare window judges it."""
        return self.take.status == TakeStatus.DONE and bool(self.take.clip_path) and clip_missing(self.path, self.clips)

    def update_use(self) -> None:
        """Use is off for the chosen take, an unfinished one, and one whose clip is missing
        (choosing it would leave the turn without a clip and stop its branch's export)."""
        self.missing = self.clip_missing
        self.use_button.setEnabled(not self.selected and self.take.status == TakeStatus.DONE and not self.missing
                                   and self.read_only_reason is None)
        # the tooltip names the take's key (1 to 9 with the story tree focused)
        self.use_button.setToolTip(CLIP_MISSING_TIP if self.missing
                                   else self.read_only_reason if self.read_only_reason and not self.selected
                                   else f"Use this take{take_key_hint(self.index + 1)}")
        self.use_button.setText(self._wordings()[0] if self.selected or self.missing else "Use")
        # a screen reader hears which take the button is for, however narrow the tile made its
        # text ("Use" in every tile, "✓" for the chosen one)
        number = self.index + 1
        self.use_button.setAccessibleName(f"Take {number} is the chosen take" if self.selected
                                          else f"Take {number}: {CLIP_MISSING_TEXT}" if self.missing
                                          else f"Use take {number}")
        if self.use_button.isVisible():
            self.fit_button_text()

    def set_read_only(self, reason: str | None) -> None:
        """Use off, ``reason`` its tooltip (None: on again where the take can be chosen)."""
        if reason != self.read_only_reason:
            self.read_only_reason = reason
            self.update_use()

    def _wordings(self) -> tuple[str, ...]:
        """The Use button's wordings, longest first."""
        if self.selected:
            return ("✓ Selected", "Selected", "✓")
        if self.missing:
            return (CLIP_MISSING_TEXT, "Missing", "✕")
        return ("Use this take", "Use")

    def _use(self) -> None:
        """Choose this take, unless its clip went since the button was last updated."""
        self.update_use()
        if self.use_button.isEnabled():
            self.chosen.emit(self.take.id)

    def _recheck(self, path: str) -> None:
        if path and path == self.path:
            self.update_use()

    def set_state(self, state: CharacterState | None, start: CharacterState | None = None) -> None:
        """The state after this take changed (a take above it was re-rolled or chosen), and with
        it the turn's start (``start``)."""
        if state != self.state:
            self.state = state
            self.state_label.setText(state_line(self.take, state))
        if start != self.start:
            self.start = start
            self._show_start()

    def _show_start(self) -> None:
        """The start the take was made from, in the state line's tooltip, and a line in view
        where it differs from the turn's start now."""
        start = TakeStart(self.take, self.start)
        self.state_label.setToolTip(f"Motion level and the acting character's state after this take.\n\n"
                                    f"{start.tooltip}")
        self.start_label.setText(start.warning)
        self.start_label.setToolTip(start.tooltip)
        self.start_label.setAccessibleName(f"Take {self.index + 1}: {start.warning}" if start.warning else "")
        self.start_label.setVisible(start.differs)

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        super().resizeEvent(event)
        self.fit_button_text()

    def fit_button_text(self) -> None:
        """The longest of the button's wordings that fits a narrow tile (four side by side)."""
        wordings = self._wordings()
        room = self.use_button.width() - BUTTON_PADDING
        metrics = self.use_button.fontMetrics()
        text = next((w for w in wordings if metrics.horizontalAdvance(w) <= room), wordings[-1])
        if text != self.use_button.text():
            self.use_button.setText(text)

    def enterEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        """The pointer comes to the tile: a clip put back (or taken away) since shows on Use."""
        super().enterEvent(event)
        self.update_use()

    def mousePressEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        self.focused.emit(self.take.id)
        super().mousePressEvent(event)


class ActionRow(QWidget):
    """The takes' buttons on one line, ``start`` at the left and ``end`` then ``second`` at the
    right, where they fit; else two lines, ``start`` and ``end`` above, ``second`` under them at
    the right; else (the narrowest inspector, a locked seed's longer wording) three, one group a
    line. Its minimum width is the widest group's, so the buttons never make the inspector
    scroll sideways at its narrowest (on one line they needed a pixel more than it had, and
    many more with a locked seed's longer wording)."""

    def __init__(self, start: list[QWidget], end: list[QWidget], second: list[QWidget],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.start, self.end, self.second = start, end, second
        self.top = QHBoxLayout()
        self.middle = QHBoxLayout()
        self.bottom = QHBoxLayout()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for line in (self.top, self.middle, self.bottom):
            layout.addLayout(line)
        self.lines = 0
        """How many lines the buttons are on now (0 until first arranged)."""
        self._arrange(1)

    @property
    def wrapped(self) -> bool | None:
        """Whether ``second`` is on a line of its own (None until first arranged)."""
        return None if not self.lines else self.lines > 1

    def _width(self, widgets: list[QWidget], gaps: int = 0) -> int:
        """Side by side, with the layout's spacing between them and ``gaps`` more spaces."""
        spacing = max(self.top.spacing(), 0)
        return sum(w.sizeHint().width() for w in widgets) + spacing * (max(0, len(widgets) - 1) + gaps)

    def one_line_width(self) -> int:
        """The width the buttons need on one line (the stretch between the groups adds a space)."""
        return self._width([*self.start, *self.end, *self.second], gaps=1)

    def two_lines_width(self) -> int:
        return max(self._width([*self.start, *self.end], gaps=1), self._width(self.second))

    def _arrange(self, lines: int) -> None:
        if lines == self.lines:
            return
        self.lines = lines
        for layout in (self.top, self.middle, self.bottom):
            while layout.count():
                layout.takeAt(0)
        for widget in self.start:
            self.top.addWidget(widget)
        self.top.addStretch(1)
        end_line = self.middle if lines == 3 else self.top
        if lines == 3:
            self.middle.addStretch(1)
        for widget in self.end:
            end_line.addWidget(widget)
        if lines > 1:
            self.bottom.addStretch(1)
        for widget in self.second:
            (self.bottom if lines > 1 else self.top).addWidget(widget)
        self.updateGeometry()

    def fit(self) -> None:
        """One line, two or three, for the row's width now."""
        width = self.width()
        self._arrange(1 if width >= self.one_line_width() else 2 if width >= self.two_lines_width() else 3)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        hint = super().minimumSizeHint()
        widest = max(self._width(self.start), self._width(self.end), self._width(self.second))
        return QSize(widest, hint.height())

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        super().resizeEvent(event)
        self.fit()

    def event(self, event: QEvent) -> bool:
        # a button's wording changed ("Seed 1234567890 locked"): one line may no longer hold it
        if event.type() == QEvent.Type.LayoutRequest:
            self.fit()
        return super().event(event)


LOCK_TIP = ("Re-roll with the seed of the selected (or clicked) take, so that a changed instruction is the only "
            "difference")
LOCK_NO_TAKES_TIP = "No take to lock the seed of yet: generate this turn first (Ctrl+Enter)"
LOCK_NO_CHOICE_TIP = "No take chosen to lock the seed of: use or click a take first"


class TakesView(QWidget):
    take_chosen = Signal(str)
    take_focused = Signal(str)
    compare_requested = Signal()
    reroll_many = Signal(int)
    seed_lock_changed = Signal(object)  # int seed, or None to unlock

    def __init__(self, clips: ClipCache, resolve: Callable[[str], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.clips = clips
        self.resolve = resolve
        self.tiles: list[TakeTile] = []
        self._key: tuple[object, ...] = ()
        self.states: dict[str, CharacterState] = {}
        self.locked_seed: int | None = None
        self.focused_take: str | None = None
        self.current_engine = ""
        """The engine new takes use (see :meth:`set_current_engine`)."""
        self.pending = (0, 0)
        """The turn's jobs running and queued (see :meth:`set_pending`)."""
        self.per_view = QComboBox(self)
        self.per_view.addItems(["2", "3", "4"])
        self.per_view.setCurrentText("4")
        self.per_view.setToolTip("How many takes to compare side by side")
        self.per_view.setAccessibleName("Takes side by side")
        self.per_view.currentTextChanged.connect(lambda _t: self._resize_tiles())
        self.read_only_reason: str | None = None
        """Why takes can't be chosen nor re-rolled (see :meth:`set_read_only`); None when they can."""
        # "12 takes · 1 being made, 11 queued" ends in "…" in a narrow inspector, whole in its tooltip
        self.count_label = ElidedLabel("No takes yet", self)
        self.count_label.setObjectName("dimLabel")
        self._row = QWidget(self)
        self._row_layout = QHBoxLayout(self._row)
        self._row_layout.setContentsMargins(0, 0, 0, 0)
        self._row_layout.setSpacing(TILE_SPACING)
        self._row_layout.addStretch(1)
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setWidget(self._row)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setMinimumHeight(250)  # the clip, caption, state line and Use button
        # not a Tab stop of its own (it showed no focus frame): Tab reaches each tile's controls,
        # and the row scrolls to the one focused (see :meth:`_follow_focus`)
        self.scroll_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._scroll_target: TakeTile | None = None
        self.scroll_area.horizontalScrollBar().rangeChanged.connect(self._apply_scroll)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._follow_focus)
        self.scroll_area.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.compare_button = QPushButton("Compare…", self)
        self.compare_button.setToolTip("Play 2 to 4 takes in sync in their own window, with state, level and seed: "
                                       f"the chosen take, the one you clicked and the newest ({COMPARE_TAKES_KEY})")
        self.compare_button.clicked.connect(self.compare_requested.emit)
        self.reroll_count = QSpinBox(self)
        self.reroll_count.setRange(2, 8)
        self.reroll_count.setValue(3)
        self.reroll_count.setToolTip("How many takes Re-roll × N queues (each with a new seed)")
        self.reroll_count.setAccessibleName("Takes per re-roll")
        self.reroll_many_button = QPushButton("Re-roll ×", self)
        self.reroll_many_button.setToolTip("Queue several new takes of this turn at once")
        self.reroll_many_button.clicked.connect(lambda: self.reroll_many.emit(self.reroll_count.value()))
        self.lock_button = QPushButton(self)  # a framed toggle: it reads as a control, not a label
        self.lock_button.setCheckable(True)
        self.lock_button.setText("Lock seed")
        self.lock_button.setToolTip(LOCK_TIP)
        self.lock_button.toggled.connect(self._on_lock)
        header = QHBoxLayout()
        header.addWidget(self.count_label, 1)
        header.addWidget(QLabel("side by side", self))
        header.addWidget(self.per_view)
        self.button_row = ActionRow([self.compare_button], [self.lock_button],
                                      [self.reroll_many_button, self.reroll_count], self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.scroll_area)
        layout.addWidget(self.button_row)

    def set_takes(self, takes: list[Take], selected_id: str | None,
                  states: dict[str, CharacterState] | None = None, start: CharacterState | None = None) -> None:
        """``states``: where each finished take leads now; ``start``: where the turn starts now."""
        self.states = dict(states or {})
        key = (tuple(id(take) for take in takes), selected_id, tuple(sorted(self.states.items())), start)
        if key == self._key:
            return
        # The takes shown until now, when they are this turn's (another turn's takes, left for
        # this one, are not "before": all of this turn's would read as just arrived, and the
        # row scrolled to the last take instead of the chosen one).
        turns = {take.node_id for take in takes}
        before = {tile.take.id for tile in self.tiles if tile.take.node_id in turns}
        focused = self._focused_tile()
        self._key = key
        # Keep the tiles of takes that did not change: a new take adds one tile instead of
        # rebuilding every player (and re-laying out the whole inspector). A changed state
        # (a take above this turn arrived) only rewrites the tile's state line.
        reusable = {(tile.index, id(tile.take), tile.selected): tile for tile in self.tiles}
        tiles: list[TakeTile] = []
        for index, take in enumerate(takes):
            state = self.states.get(take.id)
            tile = reusable.pop((index, id(take), take.id == selected_id), None)
            if tile is not None:
                tile.set_state(state, start)
            else:
                tile = TakeTile(index, take, take.id == selected_id, self.clips, self.resolve, self._row, state,
                                start)
                tile.set_read_only(self.read_only_reason)
                tile.chosen.connect(self.take_chosen.emit)
                tile.focused.connect(self.take_focused.emit)
            tiles.append(tile)
        if focused is not None and focused[0] in reusable.values():
            self._keep_focus(focused, tiles)  # before its tile goes: the focus would go with it
        for tile in reusable.values():
            tile.player.pause()
            # out of the row at once: deleted later, a tile replaced while a dialog's own event
            # loop runs (Export, Settings, a question) stayed in the row until the dialog closed,
            # beside the new turn's tiles ("No takes yet" over another turn's take)
            self._row_layout.removeWidget(tile)
            tile.hide()
            tile.deleteLater()
        for position, tile in enumerate(tiles):
            if self._row_layout.indexOf(tile) != position:
                self._row_layout.insertWidget(position, tile)
        self.tiles = tiles
        self._show_engines()
        self._show_count()
        self._resize_tiles()
        self.compare_button.setEnabled(sum(t.status == TakeStatus.DONE for t in takes) >= 2)
        self._update_lock()
        # Keep in view the take that just arrived (else the selected one).
        new = [tile for tile in self.tiles if tile.take.id not in before]
        target = new[-1] if new and before else next((t for t in self.tiles if t.take.id == selected_id), None)
        if target is not None:
            self.scroll_to(target)

    def set_read_only(self, reason: str | None) -> None:
        """Takes can be played and compared but not chosen nor re-rolled: Use and Re-roll × off,
        ``reason`` their tooltip; None turns them on again."""
        self.read_only_reason = reason
        for tile in self.tiles:
            tile.set_read_only(reason)
        self.reroll_many_button.setEnabled(reason is None)
        self.reroll_many_button.setToolTip(reason or "Queue several new takes of this turn at once")
        self.reroll_count.setEnabled(reason is None)  # a count for a re-roll that can't be made
        self.reroll_count.setToolTip(reason or "")

    def set_current_engine(self, name: str) -> None:
        """The engine new takes use now: takes made by another one name theirs."""
        if name != self.current_engine:
            self.current_engine = name
            self._show_engines()

    def _show_engines(self) -> None:
        shown = engines_differ([tile.take for tile in self.tiles], self.current_engine)
        for tile in self.tiles:
            tile.show_engine(shown)

    def set_pending(self, running: int, queued: int) -> None:
        """The turn's takes on the way: ``running`` being made and ``queued`` waiting. The
        count says so (it read "1 take" and nothing else while a re-roll ran for minutes)."""
        if (running, queued) != self.pending:
            self.pending = (running, queued)
            self._show_count()

    def _show_count(self) -> None:
        count = len(self.tiles)
        said = f"{count} take{'s' if count != 1 else ''}" if count else "No takes yet"
        running, queued = self.pending
        coming = [part for part in (f"{running} being made" if running else "",
                                    f"{queued} queued" if queued else "") if part]
        self.count_label.setText(f"{said} · {', '.join(coming)}" if coming else said)

    def _focused_tile(self) -> tuple[TakeTile, QWidget] | None:
        """The tile holding the keyboard focus and the widget in it that has it, if any."""
        focus = QApplication.focusWidget()
        if focus is None:
            return None
        return next(((tile, focus) for tile in self.tiles if tile.isAncestorOf(focus)), None)

    def _keep_focus(self, focused: tuple[TakeTile, QWidget], tiles: list[TakeTile]) -> None:
        """A tile that had the focus is being replaced (its take was chosen, say, with the
        keyboard): the focus goes to the same take's new tile, on the same control where it
        can (a chosen take's button is off: its player's, then), else on to the next control."""
        old, widget = focused
        new = next((tile for tile in tiles if tile.take.id == old.take.id), None)
        if new is None:
            target: QWidget | None = next((b for b in (self.compare_button, self.lock_button)
                                           if b.isEnabled()), self.reroll_many_button)
        else:
            old_controls = [w for w in widgets_in_reading_order(old) if w is widget or w.isAncestorOf(widget)]
            controls = widgets_in_reading_order(new)
            usable = [w for w in controls if w.isEnabled() and w.isVisibleTo(new)]
            same = controls[widgets_in_reading_order(old).index(old_controls[-1])] if old_controls else None
            target = same if same in usable else (usable[-1] if usable else None)
        if target is not None:
            target.setFocus(Qt.FocusReason.OtherFocusReason)

    def _follow_focus(self, _old: QWidget | None, new: QWidget | None) -> None:
        """A control of a tile out of sight took the focus (Tab): the row scrolls to it."""
        tile = next((tile for tile in self.tiles if new is not None and tile.isAncestorOf(new)), None)
        if tile is not None:
            self.scroll_area.ensureWidgetVisible(tile, 0, 0)  # the whole tile, not only its button

    def scroll_to(self, tile: TakeTile) -> None:
        """Bring ``tile`` into view, now and again once the row is laid out (a new tile has
        no place yet until the layout runs, and the scroll range grows after it)."""
        self._scroll_target = tile
        QTimer.singleShot(0, self._apply_scroll)

    def _apply_scroll(self, *_args: object) -> None:
        tile = self._scroll_target
        if tile is None or tile not in self.tiles:
            return
        position = self.tiles.index(tile)
        width = self.tile_width()
        left = position * (width + TILE_SPACING)
        bar = self.scroll_area.horizontalScrollBar()
        viewport = self.scroll_area.viewport().width()
        if left < bar.value():
            bar.setValue(left)
        elif left + width > bar.value() + viewport:
            bar.setValue(min(bar.maximum(), left + width - viewport))

    def tile_width(self) -> int:
        per_view = int(self.per_view.currentText())
        shown = max(1, min(per_view, len(self.tiles) or 1))
        return max(MIN_TILE_W, (self.scroll_area.viewport().width() - TILE_SPACING * (shown - 1)) // shown)

    def _resize_tiles(self) -> None:
        width = self.tile_width()
        for tile in self.tiles:
            tile.setFixedWidth(width)

    def focus_take(self, take_id: str | None) -> None:
        """The take clicked (None: none), whose seed Lock seed locks and which Compare shows."""
        self.focused_take = take_id
        self._update_lock()

    def _lock_take(self) -> Take | None:
        """The take whose seed Lock seed would lock: the clicked one, else the turn's chosen one."""
        shown = {t.take.id: t.take for t in self.tiles}
        # a take focused on another turn is not among these tiles: this turn's chosen take then
        chosen = self.focused_take if self.focused_take in shown else \
            next((t.take.id for t in self.tiles if t.selected), None)
        return shown.get(chosen) if chosen is not None else None

    def _update_lock(self) -> None:
        """Lock seed is off, saying why, while there is no take to lock the seed of (clicked,
        it did nothing at all); a locked seed can always be unlocked."""
        on = self.locked_seed is not None or self._lock_take() is not None
        self.lock_button.setEnabled(on)
        self.lock_button.setToolTip(LOCK_TIP if on else LOCK_NO_CHOICE_TIP if self.tiles else LOCK_NO_TAKES_TIP)

    def _on_lock(self, on: bool) -> None:
        seed: int | None = None
        if on:
            take = self._lock_take()
            if take is None:
                self.lock_button.blockSignals(True)
                self.lock_button.setChecked(False)
                self.lock_button.blockSignals(False)
                return
            seed = take.seed
        self.set_locked_seed(seed)
        self.seed_lock_changed.emit(seed)

    def set_locked_seed(self, seed: int | None) -> None:
        self.locked_seed = seed
        self.lock_button.blockSignals(True)
        self.lock_button.setChecked(seed is not None)
        self.lock_button.setText("Lock seed" if seed is None else f"Seed {seed} locked")
        self.lock_button.blockSignals(False)
        self._update_lock()

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        super().resizeEvent(event)
        self._resize_tiles()
