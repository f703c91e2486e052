"""Two branches of the story side by side, in their own window (Turn › Compare branches…).

Each column picks a branch (a leaf's path from the start), plays its turns after the point
where the two branches part, as the exported episode would, and lists those turns with
the acting character's state after each. One clock drives both players: they show the same
moment counted from the parting, the shorter branch holding its last frame once it ends.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSlider,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.sentence import describe_action
from studio.core.state import StateScope
from studio.core.tree import StoryTree
from studio.ui import palette
from studio.ui.episode.episode_panel import no_clip_note
from studio.ui.inspector.takes_view import state_line
from studio.ui.media_cache import ClipCache
from studio.ui.node_summary import CardStatus, JobView, NodeSummary, cut_to_chars, summarize
from studio.ui.player import STEP_BACK_KEY, STEP_ON_KEY, Player, add_step_keys, format_clock
from studio.ui.shared_clock import SharedClockWindow

NAME_CHARS = 70
"""A branch's name in a picker is cut here (the picker's tooltip has it whole)."""
DEFAULT_FPS = 8.0
FOLLOW_MS = 80
"""Changes to the story are taken in this long after the last one (a branch re-roll lands
take after take: the window redraws once for a burst)."""
NOTHING_TO_COMPARE = ("Nothing to compare: this story has one branch. Fork a turn (select it and press F) to "
                      "start another branch, then compare the two.")


@dataclass(frozen=True)
class StoryBranch:
    """One branch of the story: the path from the start (included) to ``leaf``."""

    leaf: str
    path: tuple[str, ...]
    name: str


def action_text(tree: StoryTree, node_id: str) -> str:
    """What happens in a turn, as the queue words it ("Qiqi runs to the bakery, at night.")."""
    node = tree.node(node_id)
    action = describe_action(node.instruction, cast=tree.cast_names())
    return action or " ".join(node.instruction.raw.split()) or "An empty turn"


def turn_name(tree: StoryTree, node_id: str) -> str:
    """"Turn 7 · Qiqi runs to the bakery, at night" (the start: "Start")."""
    if tree.node(node_id).is_root:
        return "Start"
    return f"Turn {tree.depth(node_id)} · {action_text(tree, node_id).rstrip('.')}"


def story_branches(tree: StoryTree) -> list[StoryBranch]:
    """Every branch of the story, top to bottom as the tree draws them. Branches whose last
    turns read alike (a fork keeps its original's instruction) are told apart by their place."""
    leaves = tree.leaves_under(tree.root_id)
    names = [turn_name(tree, leaf.id) for leaf in leaves]
    branches = []
    for index, leaf in enumerate(leaves):
        name = cut_to_chars(names[index], NAME_CHARS)
        if names.count(names[index]) > 1:
            name += f" (branch {index + 1} of {len(leaves)})"
        branches.append(StoryBranch(leaf.id, tuple(n.id for n in tree.path_to(leaf.id)), name))
    return branches


def shared_length(a: Sequence[str], b: Sequence[str]) -> int:
    """How many turns, from the start (included), two paths have in common."""
    count = 0
    for left, right in zip(a, b, strict=False):
        if left != right:
            break
        count += 1
    return count


def parting_text(a: Sequence[str], b: Sequence[str]) -> str:
    """Where two branches (paths from the start) part, in words."""
    if tuple(a) == tuple(b):
        return "Both columns show the same branch: pick another branch in one of them."
    same = shared_length(a, b) - 1  # the start is no turn
    if same <= 0:
        return "They part at the start: every turn differs."
    if same == 1:
        return "Turn 1 is the same; they part after turn 1."
    return f"Turns 1–{same} are the same; they part after turn {same}."


def nearest_branch(branches: Sequence[StoryBranch], index: int) -> int | None:
    """The other branch that parts from branch ``index`` latest (the nearest drawn, when
    several part at the same turn); None when there is no other."""
    others = [i for i in range(len(branches)) if i != index]
    if not others or not 0 <= index < len(branches):
        return None
    path = branches[index].path
    return max(others, key=lambda i: (shared_length(path, branches[i].path), -abs(i - index), -i))


def default_pair(branches: Sequence[StoryBranch], shown_leaf: str) -> tuple[int, int] | None:
    """The branches the window opens on: the one the main window shows (else the first) and
    the nearest other; None with fewer than two branches."""
    if len(branches) < 2:
        return None
    left = next((i for i, b in enumerate(branches) if b.leaf == shown_leaf), 0)
    right = nearest_branch(branches, left)
    return None if right is None else (left, right)


def follow_leaf(tree: StoryTree, leaf: str) -> str | None:
    """Where a branch picked before a change ends now: the same leaf; the first branch below
    it when turns were added after it; None when it was deleted."""
    if leaf not in tree.nodes:
        return None
    return tree.first_leaf(leaf).id


def state_text(tree: StoryTree, summary: NodeSummary) -> str:
    """The acting character's state after a turn, as the take tiles show it, or why it has
    none yet."""
    take = tree.selected_take(summary.node_id)
    line = state_line(take, tree.state_of(summary.node_id)) if take is not None else ""
    if not line:
        if summary.status is CardStatus.FAILED:
            return "failed: re-roll it (R) in the main window"
        if summary.status in (CardStatus.QUEUED, CardStatus.RUNNING):
            return palette.STATUS_LABELS[summary.status] + "…"
        return "not generated yet"
    who = tree.acting_character(summary.node_id) if tree.state_scope is not StateScope.BRANCH else ""
    stale = " · stale" if summary.status is CardStatus.STALE else ""
    return f"{who}: {line}{stale}" if who else line + stale


@dataclass(frozen=True)
class TurnRow:
    """One turn of a column's list, and its clip on the column's timeline."""

    number: int
    action: str
    instruction: str
    state: str
    clip: str
    """The absolute clip path ("": no clip; the player shows its stand-in for the turn)."""
    length: tuple[int, float] | None
    duration: float | None
    note: str = ""
    """What the player says while the turn, which has no clip, is at the playback position
    (not generated yet, queued, failed), as the main window's player says it."""


def turn_rows(tree: StoryTree, path: Sequence[str], start: int, resolve: Callable[[str], str],
              job_for: Callable[[str], JobView | None]) -> list[TurnRow]:
    """The rows of ``path``'s turns from index ``start`` on."""
    rows = []
    for node_id in path[start:]:
        summary = summarize(tree, node_id, job_for(node_id))
        length = (summary.clip_frames, summary.clip_fps) if summary.clip_frames else None
        depth = tree.depth(node_id)
        rows.append(TurnRow(depth, action_text(tree, node_id), tree.node(node_id).instruction.raw,
                            state_text(tree, summary), resolve(summary.clip_path) if summary.clip_path else "",
                            length, summary.duration, "" if summary.clip_path else no_clip_note(depth, summary)))
    return rows


def frame_at(player: Player, seconds: float) -> int:
    """The frame of ``player``'s timeline shown ``seconds`` from its start (its last frame past its end)."""
    count = player.frame_count
    if count <= 0:
        return 0
    frames = range(count)
    return max(0, bisect.bisect_right(frames, seconds + 1e-6, key=player.time_at) - 1)


class BranchColumn(QFrame):
    """One branch: its picker, a button that shows it in the main window, its player and its turns."""

    def __init__(self, side: str, clips: ClipCache, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("takeTile")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.leaf = ""
        self.rows: list[TurnRow] = []
        self.picker = QComboBox(self)
        self.picker.setAccessibleName(f"{side} branch")
        self.picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.picker.setMinimumContentsLength(24)
        self.show_button = QPushButton("Show in the main window", self)
        self.show_button.setToolTip("Select this branch's last turn in the main window")
        self.show_button.setAutoDefault(False)
        self.caption = QLabel(self)
        self.caption.setObjectName("dimLabel")
        self.player = Player(clips, self, compact=True)
        self.player.play_button.hide()
        self.player.slider.hide()
        self.player.loop = False
        self.player.setMinimumSize(260, 170)
        self.turns = QTreeWidget(self)
        self.turns.setHeaderLabels(["Turn", "What happens, and the state after it"])
        self.turns.setAccessibleName(f"{side} branch's turns")
        self.turns.setRootIsDecorated(False)
        self.turns.setUniformRowHeights(True)
        self.turns.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.turns.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard scrubs with the window's slider
        self.turns.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.turns.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(self.show_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.picker)
        layout.addWidget(self.caption)
        layout.addWidget(self.player, 3)
        layout.addWidget(self.turns, 2)
        layout.addLayout(bottom)
        self.playing_row = -1

    def set_choices(self, branches: Sequence[StoryBranch], leaf: str) -> None:
        """Offer ``branches``, ``leaf``'s picked (without announcing it)."""
        self.leaf = leaf
        self.picker.blockSignals(True)
        if [self.picker.itemData(i) for i in range(self.picker.count())] != [b.leaf for b in branches] or \
                [self.picker.itemText(i) for i in range(self.picker.count())] != [b.name for b in branches]:
            self.picker.clear()
            for branch in branches:
                self.picker.addItem(branch.name, branch.leaf)
        index = self.picker.findData(leaf)
        self.picker.setCurrentIndex(index)
        self.picker.setToolTip(self.picker.itemText(index) if index >= 0 else "")
        self.picker.blockSignals(False)

    def set_rows(self, rows: list[TurnRow], *, parted: bool = True) -> None:
        """Show ``rows`` (the turns after the parting) and give the player their clips.
        ``parted``: False when both columns show the same branch, which has no parting
        (then the caption said "Turns 1–5 after the parting" of a parting there is not)."""
        turns = len(rows)
        made = sum(1 for row in rows if row.clip)
        where = " after the parting" if parted else ""
        if turns:
            span = f"Turn {rows[0].number}" if turns == 1 else f"Turns {rows[0].number}–{rows[-1].number}"
            self.caption.setText(f"{span}{where} · {made} of {turns} generated")
        else:
            self.caption.setText(f"No turns{where}" if parted else "No turns yet")
        if rows != self.rows:
            self.rows = list(rows)
            self.turns.clear()
            items = []
            for row in rows:
                # two lines (each elided on its own): the state read beside the action took half the width
                item = QTreeWidgetItem([str(row.number), f"{row.action}\n{row.state}"])
                written = f"\n{row.instruction}" if row.instruction.strip() else ""
                item.setToolTip(1, f"{row.action}{written}\nAfter it: {row.state}")
                item.setTextAlignment(0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
                items.append(item)
            self.turns.addTopLevelItems(items)
            self.playing_row = -1
        # a turn without a clip lasts its set duration, saying why it has none (see TurnRow.note)
        self.player.set_clips([row.clip for row in rows], lengths=[row.length for row in rows],
                              durations=[row.duration for row in rows], notes=[row.note for row in rows])

    def mark_playing(self, index: int) -> None:
        """Highlight the row of the turn at the playback position (-1: none)."""
        if index == self.playing_row:
            return
        old = self.turns.topLevelItem(self.playing_row) if self.playing_row >= 0 else None
        if old is not None:
            for column in range(2):
                old.setFont(column, QFont())
        self.playing_row = index
        item = self.turns.topLevelItem(index) if index >= 0 else None
        self.turns.blockSignals(True)
        if item is None:
            self.turns.clearSelection()
        else:
            bold = QFont()
            bold.setBold(True)
            for column in range(2):
                item.setFont(column, bold)
            self.turns.setCurrentItem(item)
            self.turns.scrollToItem(item)
        self.turns.blockSignals(False)

    @property
    def duration(self) -> float:
        return self.player.duration

    def fps(self) -> float:
        """The rate the column's episode plays at (its first clip's), else :data:`DEFAULT_FPS`."""
        player = self.player
        return player.frame_count / player.duration if player.frame_count and player.duration > 0 else DEFAULT_FPS


class BranchCompareWindow(SharedClockWindow):
    """Two branches playing side by side from where they part."""

    leaf_shown = Signal(str)
    """"Show in the main window" was pressed: select this leaf there."""

    def __init__(self, tree: Callable[[], StoryTree], shown_leaf: Callable[[], str], clips: ClipCache,
                 resolve: Callable[[str], str], job_for: Callable[[str], JobView | None],
                 parent: QWidget | None = None) -> None:
        """``tree``: the story as it is now; ``shown_leaf``: the last turn of the branch the
        main window shows now; ``resolve``: a clip's stored path as a file; ``job_for``: the
        job a turn's card shows (queued, running, failed), if any."""
        super().__init__(parent)
        self.setWindowTitle("Compare branches")
        self.setModal(False)
        self._resolve = resolve
        self._job_for = job_for
        self._tree = tree
        self._shown_leaf = shown_leaf
        self.branches: list[StoryBranch] = []
        self.position = 0.0
        """The clock: seconds from the parting."""
        self.fps = DEFAULT_FPS
        self.parting = QLabel(self)
        self.parting.setObjectName("panelTitle")
        self.parting.setWordWrap(True)
        self.notice = QLabel(NOTHING_TO_COMPARE, self)
        self.notice.setWordWrap(True)
        self.notice.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.notice.hide()
        self.left = BranchColumn("Left", clips, self)
        self.right = BranchColumn("Right", clips, self)
        self.columns: tuple[BranchColumn, BranchColumn] = (self.left, self.right)
        self.play_button = QPushButton("Play", self)
        self.play_button.setObjectName("primaryButton")
        self.play_button.setToolTip(f"Play / pause both branches (Space); the \"{STEP_BACK_KEY}\" and "
                                    f"\"{STEP_ON_KEY}\" keys step a frame back and on")
        self.play_button.setAutoDefault(False)
        self.play_button.clicked.connect(self.toggle)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setAccessibleName("Time from the parting")
        self.slider.valueChanged.connect(lambda value: self.seek(value / 1000))
        self.time_label = QLabel(format_clock(0.0), self)
        self.time_label.setObjectName("dimLabel")
        self.time_label.setMinimumWidth(96)
        self.body = QWidget(self)
        columns = QHBoxLayout(self.body)
        columns.setContentsMargins(0, 0, 0, 0)
        columns.addWidget(self.left, 1)
        columns.addWidget(self.right, 1)
        transport = QHBoxLayout()
        transport.addWidget(self.play_button)
        transport.addWidget(self.slider, 1)
        transport.addWidget(self.time_label)
        layout = QVBoxLayout(self)
        layout.addWidget(self.parting)
        layout.addWidget(self.body, 1)
        layout.addWidget(self.notice, 1)
        layout.addLayout(transport)
        for column in self.columns:
            column.picker.currentIndexChanged.connect(lambda _i, c=column: self._picked(c))
            column.show_button.clicked.connect(lambda _c=False, c=column: self.leaf_shown.emit(c.leaf))
            column.turns.itemClicked.connect(lambda item, _col, c=column: self._row_clicked(c, item))
        order = [self.left.picker, self.right.picker, self.left.show_button, self.right.show_button,
                 self.play_button, self.slider]
        for before, after in itertools.pairwise(order):
            QWidget.setTabOrder(before, after)
        # Space plays (see SharedClockWindow.keyPressEvent); "," and "." step a frame, as in the episode preview
        add_step_keys(self, self.step)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.tick)
        self._follow_timer = QTimer(self)
        self._follow_timer.setSingleShot(True)
        self._follow_timer.setInterval(FOLLOW_MS)
        self._follow_timer.timeout.connect(self._refresh)
        # bound methods: Qt drops the connections with this window (the cache lives on)
        clips.ready.connect(self._on_clip)
        clips.failed.connect(self._on_clip)
        self._pick(None, None)
        self.resize(1100, 720)

    # -- what the columns show ----------------------------------------------------------

    @property
    def has_branches(self) -> bool:
        """Whether the story has two branches or more to compare."""
        return len(self.branches) >= 2

    def follow(self) -> None:
        """Take in a change to the story soon (once a burst of changes is over): a take that
        landed, a turn added or deleted. A branch that is gone gives way to the default pick."""
        self._follow_timer.start()

    def _refresh(self) -> None:
        tree = self._tree()
        left = follow_leaf(tree, self.left.leaf) if self.left.leaf else None
        right = follow_leaf(tree, self.right.leaf) if self.right.leaf else None
        self._pick(left, right)

    def _pick(self, left: str | None, right: str | None) -> None:
        """Show branches ending at ``left`` and ``right``; one that is None (or not a branch
        now) is the default pick: the main window's branch, and the nearest other one."""
        self.branches = story_branches(self._tree())
        pair = default_pair(self.branches, self._shown_leaf())
        self.body.setVisible(pair is not None)
        self.notice.setVisible(pair is None)
        for widget in (self.play_button, self.slider, self.time_label):
            widget.setVisible(pair is not None)
        if pair is None:
            self.pause()
            self.parting.setText("Only one branch")
            for column in self.columns:
                column.leaf = ""
            return
        leaves = [b.leaf for b in self.branches]
        kept = [leaf if leaf in leaves else None for leaf in (left, right)]
        if kept[0] is None and kept[1] is None:
            kept = [leaves[pair[0]], leaves[pair[1]]]
        elif kept[0] is None:
            nearest = nearest_branch(self.branches, leaves.index(str(kept[1])))
            kept[0] = leaves[pair[0]] if leaves[pair[0]] != kept[1] or nearest is None else leaves[nearest]
        elif kept[1] is None:
            nearest = nearest_branch(self.branches, leaves.index(kept[0]))
            kept[1] = leaves[nearest] if nearest is not None else leaves[pair[1]]
        self._show(str(kept[0]), str(kept[1]))

    def _show(self, left: str, right: str) -> None:
        tree = self._tree()
        paths = {b.leaf: b.path for b in self.branches}
        a, b = paths[left], paths[right]
        self.parting.setText(parting_text(a, b))
        start = shared_length(a, b) if a != b else 1
        self.left.set_choices(self.branches, left)
        self.right.set_choices(self.branches, right)
        for column, path in ((self.left, a), (self.right, b)):
            column.set_rows(turn_rows(tree, path, start, self._resolve, self._job_for), parted=a != b)
        self._update_range()

    def _picked(self, column: BranchColumn) -> None:
        """A branch picked in ``column``: both columns start again from the new parting."""
        leaf = column.picker.currentData()
        if not isinstance(leaf, str) or leaf == column.leaf:
            return
        column.leaf = leaf
        self._show(self.left.leaf, self.right.leaf)
        self.seek(0.0)

    def _row_clicked(self, column: BranchColumn, item: QTreeWidgetItem) -> None:
        """A turn clicked in a column's list: the clock goes to that turn's start."""
        index = column.turns.indexOfTopLevelItem(item)
        player = column.player
        player.seek_segment(index)
        self.seek(player.time_at(player.frame))

    # -- the clock ------------------------------------------------------------------------

    @property
    def duration(self) -> float:
        """The longer branch's time after the parting."""
        return max((c.duration for c in self.columns), default=0.0)

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def _on_clip(self, path: str) -> None:
        if any(path in c.player.paths for c in self.columns):
            # after the players: they take the clip in first (they were connected before this window)
            QTimer.singleShot(0, self, self._update_range)

    def _update_range(self) -> None:
        self.fps = max((c.fps() for c in self.columns), default=DEFAULT_FPS)
        self._timer.setInterval(max(10, int(1000 / self.fps)))
        self.slider.blockSignals(True)
        self.slider.setRange(0, int(self.duration * 1000))
        self.slider.setSingleStep(max(1, round(1000 / self.fps)))
        self.slider.setPageStep(1000)
        self.slider.blockSignals(False)
        self.seek(self.position)

    def seek(self, seconds: float) -> None:
        """Both branches at ``seconds`` from the parting (the shorter one's last frame past its end)."""
        self.position = max(0.0, min(seconds, self.duration))
        for column in self.columns:
            player = column.player
            if player.frame_count:
                frame = frame_at(player, self.position)
                if frame != player.frame:
                    player.seek(frame)
            row = player.segment_index if player.frame_count else -1
            column.mark_playing(row)
            # a turn without a clip: its stand-in says why (not generated, queued, failed), not "missing"
            note = column.rows[row].note if 0 <= row < len(column.rows) else ""
            if note and player.note != note:
                player.hold_note(note)
        self.slider.blockSignals(True)
        self.slider.setValue(round(self.position * 1000))
        self.slider.blockSignals(False)
        self.time_label.setText(f"{format_clock(self.position)} / {format_clock(self.duration)}")

    def times(self) -> list[float]:
        """The moment each column's player shows, in seconds from the parting."""
        return [c.player.time_at(c.player.frame) for c in self.columns]

    def play(self) -> None:
        if not self.has_branches or self.duration <= 0:
            return
        if self.position >= self.duration - 1 / self.fps:
            self.position = 0.0
        self._timer.start()
        self.play_button.setText("Pause")

    def pause(self) -> None:
        self._timer.stop()
        self.play_button.setText("Play")

    def step(self, delta: int) -> None:
        """Pause and move the clock ``delta`` frames (at :attr:`fps`) on, back when negative, from
        the frame shown, stopping at the first and the last frame."""
        self.pause()
        if not self.has_branches or self.duration <= 0:
            return
        last = max(0, math.ceil(self.duration * self.fps - 1e-6) - 1)
        shown = min(last, math.floor(self.position * self.fps + 1e-6))  # a scrub may land between frames
        self.seek(max(0, min(shown + delta, last)) / self.fps)

    def advance(self) -> None:
        following = self.position + 1 / self.fps
        self.seek(0.0 if following >= self.duration - 1e-6 else following)
