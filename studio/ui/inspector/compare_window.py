"""Takes side by side in their own window, playing in sync: one clock, one slider, every
take at the same moment (takes made at different frame rates too); under each, its state,
motion level and seed, and a button to use it or to lock its seed."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from html import escape

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from studio.core.model import Take
from studio.core.state import CharacterState
from studio.core.tree import StoryTree
from studio.ui.inspector.missing_clip import CLIP_MISSING_TEXT, CLIP_MISSING_TIP, clip_missing
from studio.ui.inspector.take_start import TakeStart
from studio.ui.inspector.takes_view import state_line
from studio.ui.media_cache import ClipCache
from studio.ui.player import STEP_BACK_KEY, STEP_ON_KEY, Player, add_step_keys, format_clock
from studio.ui.shared_clock import SharedClockWindow

MAX_COMPARED = 4
DEFAULT_FPS = 8.0
MAX_FPS = 240.0


def takes_to_compare(takes: list[Take], selected_id: str | None, limit: int = MAX_COMPARED,
                     also: str | None = None) -> list[Take]:
    """The selected take, the take ``also`` (the one clicked in the inspector: with a dozen
    takes, the only way to compare an older take with the chosen one) and the newest others
    with a clip, at most ``limit``, in take order."""
    playable = [t for t in takes if t.clip_path and t.status.value == "done"]
    first = (selected_id, also)
    chosen = [t for wanted in dict.fromkeys(first) for t in playable if wanted is not None and t.id == wanted]
    others = [t for t in reversed(playable) if t.id not in first]
    picked = {t.id for t in (chosen + others)[:limit]}
    return [t for t in playable if t.id in picked]


def clip_fps(takes: list[Take]) -> float:
    """The frame rate the takes' clips were made at (the first take's that says one), else
    :data:`DEFAULT_FPS`. A take's settings come from the project file: a rate another program
    stored as text ("fast"), or one out of reach (0, inf, nan), reads as the default rather
    than stop the window from opening."""
    for take in takes:
        value = take.settings.get("fps")
        if not value or isinstance(value, bool):
            continue
        try:
            fps = float(value)
        except (TypeError, ValueError):
            continue
        return fps if math.isfinite(fps) and 0 < fps <= MAX_FPS else DEFAULT_FPS
    return DEFAULT_FPS


class _Column(QFrame):
    def __init__(self, number: int, take: Take, state: CharacterState | None, selected: bool, clips: ClipCache,
                 path: str, parent: QWidget, start: CharacterState | None = None) -> None:
        super().__init__(parent)
        self.take = take
        self.number = number
        self.path = path
        self._clips = clips
        self.selected = selected
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.player = Player(clips, self, compact=True)
        self.player.play_button.hide()
        self.player.slider.hide()
        self.player.setMinimumSize(220, 150)
        self.player.loop = False
        if path:
            self.player.set_clips([path])
        self.caption = QLabel(self)
        self.facts = QLabel(self)
        self.facts.setObjectName("dimLabel")
        self.facts.setWordWrap(True)
        self.start_note = QLabel(self)
        self.start_note.setObjectName("staleBadge")
        self.start_note.setWordWrap(True)
        self.set_state(state, start)
        self.use_button = QPushButton(self)
        # the seed is in the facts above: written on the button too, the row of buttons made
        # each column about 270 pixels wide, and three takes did not fit an 800-pixel screen
        self.lock_button = QPushButton("Lock seed", self)
        self.lock_button.setToolTip(f"Lock seed {take.seed}: new takes use it until it is unlocked")
        self.lock_button.setAccessibleName(f"Lock seed {take.seed} of take {number}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.player, 1)
        layout.addWidget(self.caption)
        layout.addWidget(self.facts)
        layout.addWidget(self.start_note)
        buttons = QHBoxLayout()
        buttons.addWidget(self.use_button)
        buttons.addWidget(self.lock_button)
        layout.addLayout(buttons)
        self.set_selected(selected)

    def set_state(self, state: CharacterState | None, start: CharacterState | None = None) -> None:
        """Where the take leads and where it started, beside the turn's start now (``start``):
        both change with the past (a take chosen above this turn)."""
        take = self.take
        began = TakeStart(take, start)
        # the engine's name as written (a name stored by another program may hold "<")
        facts = f"{escape(state_line(take, state))}<br>seed {take.seed} · {escape(take.engine)}"
        if began.known and not began.differs:
            facts += f"<br>{escape(began.line, quote=False)}"
        if self.facts.text() != facts:
            self.facts.setText(facts)
        self.facts.setToolTip(began.tooltip)
        # where it is not the turn's start now: a line of its own, in the stale colour of the scheme
        self.start_note.setText(f"⚠ {began.line}" if began.differs else "")
        self.start_note.setToolTip(began.tooltip)
        self.start_note.setVisible(began.differs)
        self.started_elsewhere = began.differs

    @property
    def clip_missing(self) -> bool:
        """Whether the take's clip can't be played (see :func:`clip_missing`)."""
        return clip_missing(self.path, self._clips)

    def set_selected(self, selected: bool) -> None:
        self.selected = selected
        missing = self.clip_missing
        stale = " · stale" if self.take.stale else ""
        gone = " · clip missing" if missing else ""
        self.caption.setText(f"<b>Take {self.number}</b>{' · selected' if selected else ''}{stale}{gone}")
        unusable = missing and not selected
        self.use_button.setText("✓ Selected" if selected else CLIP_MISSING_TEXT if unusable else "Use this take")
        # a screen reader hears which take each column's button is for
        self.use_button.setAccessibleName(f"Take {self.number} is the chosen take" if selected
                                          else f"Take {self.number}: {CLIP_MISSING_TEXT}" if unusable
                                          else f"Use take {self.number}")
        self.use_button.setEnabled(not selected and not missing)
        self.use_button.setToolTip(CLIP_MISSING_TIP if missing else "")
        self.setObjectName("takeTileSelected" if selected else "takeTile")
        self.style().unpolish(self)  # the style sheet's frame follows the object name
        self.style().polish(self)


class CompareWindow(SharedClockWindow):
    """2-4 takes of one turn playing frame for frame together."""

    take_chosen = Signal(str)
    seed_locked = Signal(int)

    def __init__(self, title: str, takes: list[Take], selected_id: str | None, states: dict[str, CharacterState],
                 clips: ClipCache, resolve: Callable[[str], str], parent: QWidget | None = None, *,
                 numbers: Mapping[str, int] | None = None, start: CharacterState | None = None) -> None:
        """``numbers``: each take's number as the inspector shows it (its place among all the
        turn's takes, not only the compared ones); by default the place in ``takes``.
        ``start``: where the turn starts now, set beside where each take started."""
        super().__init__(parent)
        self.start = start
        self.setWindowTitle(f"Compare takes — {title}")
        self.setModal(False)
        self.frame = 0
        self.also: str | None = None
        """The take clicked in the inspector when Compare was asked for, kept among the columns."""
        self._wants_play = False  # asked to play before a clip was loaded: it starts with the first
        self._clips = clips
        self._resolve = resolve
        self.columns: list[_Column] = []
        self.grid = QGridLayout()
        self.grid.setSpacing(8)
        self.play_button = QPushButton("Play", self)
        self.play_button.setObjectName("primaryButton")
        self.play_button.setToolTip(f"Play / pause every take (Space); the \"{STEP_BACK_KEY}\" and "
                                    f"\"{STEP_ON_KEY}\" keys step a frame back and on")
        self.play_button.clicked.connect(self.toggle)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setAccessibleName("Time in the takes")
        self.slider.valueChanged.connect(self.seek)
        # Space plays (see SharedClockWindow.keyPressEvent); "," and "." step a frame, as in the episode preview
        add_step_keys(self, self.step)
        self.position = QLabel(format_clock(0.0), self)
        self.position.setObjectName("dimLabel")
        self.position.setMinimumWidth(96)
        controls = QHBoxLayout()
        controls.addWidget(self.play_button)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.position)
        layout = QVBoxLayout(self)
        layout.addLayout(self.grid, 1)
        layout.addLayout(controls)
        self.fps = DEFAULT_FPS
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.tick)
        # A bound method: Qt drops the connection when this window is deleted (the cache lives on).
        clips.ready.connect(self._on_clip_ready)
        clips.failed.connect(self._recheck)
        self._build_columns(takes, selected_id, states, numbers)
        shown = len(self.columns)
        self.resize(380 * min(2, max(1, shown)) if shown == 4 else 330 * max(1, shown), 640 if shown == 4 else 380)

    def _build_columns(self, takes: list[Take], selected_id: str | None, states: Mapping[str, CharacterState],
                       numbers: Mapping[str, int] | None) -> None:
        for column in self.columns:
            column.player.pause()
            self.grid.removeWidget(column)
            column.hide()
            column.deleteLater()
        self.columns = []
        shown = takes[:MAX_COMPARED]
        numbers = numbers or {take.id: index + 1 for index, take in enumerate(takes)}
        for position, take in enumerate(shown):
            column = _Column(numbers.get(take.id, position + 1), take, states.get(take.id), take.id == selected_id,
                             self._clips, self._resolve(take.clip_path), self, self.start)
            column.use_button.clicked.connect(lambda _c=False, c=column: self._use(c))
            column.lock_button.clicked.connect(lambda _c=False, s=take.seed: self.seed_locked.emit(s))
            self.grid.addWidget(column, position // 2 if len(shown) == 4 else 0,
                                position % 2 if len(shown) == 4 else position)
            self.columns.append(column)
        self._update_range()

    def follow(self, tree: StoryTree, node_id: str) -> None:
        """Show what the window would show if opened now on turn ``node_id`` of ``tree``: a
        take finished since (a re-roll) joins the others, and the selected take is marked.
        The clock keeps its place and keeps playing."""
        node = tree.nodes.get(node_id)
        if node is None:
            return
        all_takes = tree.takes_of(node_id)
        takes = takes_to_compare(all_takes, node.selected_take_id, also=self.also)
        before = tree.state_before(node_id)  # another take chosen above: each take leads elsewhere
        self.start = before
        states = {t.id: before.apply(t.deltas) for t in takes}
        if [t.id for t in takes] == [c.take.id for c in self.columns]:
            for take, column in zip(takes, self.columns, strict=True):
                column.take = take  # marked stale since, say: its caption says so below
                column.set_state(states[take.id], before)
        else:
            numbers = {take.id: index + 1 for index, take in enumerate(all_takes)}
            playing = self.playing or self._wants_play
            self._build_columns(takes, node.selected_take_id, states, numbers)
            self.resize(self.size().expandedTo(self.sizeHint()))
            if playing:
                self.play()
        self.set_selected(node.selected_take_id)

    def set_selected(self, take_id: str | None) -> None:
        """Follow the turn's selected take (chosen here, elsewhere, or undone)."""
        for column in self.columns:
            column.set_selected(column.take.id == take_id)

    def _use(self, column: _Column) -> None:
        """Choose ``column``'s take, unless its clip went missing since the button was last
        updated (deleted while the window was open): the button then says so instead."""
        if column.clip_missing:
            column.set_selected(column.selected)
            return
        self.take_chosen.emit(column.take.id)

    def _recheck(self, path: str) -> None:
        """The clip at ``path`` failed to load, or loaded (put back): its column's Use follows."""
        for column in self.columns:
            if column.path == path:
                column.set_selected(column.selected)

    @staticmethod
    def column_fps(column: _Column) -> float:
        """The rate ``column``'s clip plays at: its decoded clip's, else its take's settings'."""
        player = column.player
        duration = player.duration
        if player.frame_count and duration > 0:
            return min(MAX_FPS, player.frame_count / duration)
        return clip_fps([column.take])

    def _ticks(self, column: _Column) -> int:
        """How many ticks of the window's clock ``column``'s clip lasts."""
        return math.ceil(column.player.frame_count * self.fps / self.column_fps(column) - 1e-6)

    @property
    def frame_count(self) -> int:
        """The clock's ticks (at :attr:`fps`) until the longest clip ends."""
        return max((self._ticks(c) for c in self.columns), default=0)

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def _on_clip_ready(self, path: str) -> None:
        self._recheck(path)
        # after the columns' players take the clip: they were connected after this window (and a
        # column built by follow() later still), so now a player that just got its clip would
        # not yet have the frames to seek, and would show its first frame while paused
        QTimer.singleShot(0, self, self._after_clip_ready)

    def _after_clip_ready(self) -> None:
        self._update_range()
        if self._wants_play:
            self.play()

    def _update_range(self) -> None:
        # The clock ticks at the fastest take's rate; each take shows the frame it is at by
        # then (takes made at 8 and 16 fps played frame for frame, one in slow motion).
        self.fps = max((self.column_fps(c) for c in self.columns), default=DEFAULT_FPS)
        self._timer.setInterval(max(10, int(1000 / self.fps)))
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(0, self.frame_count - 1))
        self.slider.blockSignals(False)
        self.seek(self.frame)

    def frames(self) -> list[int]:
        """The frame each take shows now, in its own clip (a shorter clip holds its last frame)."""
        return [c.player.frame for c in self.columns]

    def seek(self, frame: int) -> None:
        self.frame = max(0, min(frame, max(0, self.frame_count - 1)))
        for column in self.columns:
            if column.player.frame_count:
                frame = int(self.frame * self.column_fps(column) / self.fps + 1e-6)
                column.player.seek(min(frame, column.player.frame_count - 1))
        self.slider.blockSignals(True)
        self.slider.setValue(self.frame)
        self.slider.blockSignals(False)
        # elapsed / total, as the episode preview and the Compare branches window show it
        self.position.setText(f"{format_clock(self.frame / self.fps)} / {format_clock(self.frame_count / self.fps)}")

    def play(self) -> None:
        self._wants_play = not self.frame_count
        if self.frame_count:
            self._timer.start()
            self.play_button.setText("Pause")

    def pause(self) -> None:
        self._wants_play = False
        self._timer.stop()
        self.play_button.setText("Play")

    def step(self, delta: int) -> None:
        """Pause and move the clock ``delta`` frames on (back, when negative), stopping at either end."""
        self.pause()
        self.seek(self.frame + delta)  # seek keeps it within the clock's range

    def advance(self) -> None:
        count = self.frame_count
        if count:
            self.seek((self.frame + 1) % count)
