"""The scene that mirrors the story tree: cards placed by the tidy layout, edges, overview.

It redraws from change sets only: a new or removed node, or a move among siblings,
re-runs the O(n) layout and moves the cards whose cell changed; any other change
refreshes the summaries of the touched nodes and of their descendants (a node's state
depends on every selected take above it).

A turn can be folded, as an outliner folds a heading: the turns after it take no cell (the
layout does not see them) and its card says how many it hides. Selecting a hidden turn (an
undo, a click in the episode strip, Right on the folded card) unfolds what hides it, so the
selected turn always has a cell. The window keeps a project's folds in the app's settings when
the project closes and gives them back when it opens (:meth:`TreeScene.restore_folds`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, QPoint, QPointF, QRectF, QTimer, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from studio.core.changes import ChangeSet, EntityKind
from studio.core.document import Document
from studio.ui import palette
from studio.ui.canvas.card_item import HOVER_FRAME_MS, CardItem, card_tooltip
from studio.ui.canvas.geometry import CARD_H, CARD_W, OVERVIEW_SCALE
from studio.ui.canvas.layers import EdgeLayer, OverviewLayer
from studio.ui.job_tracker import JobTracker
from studio.ui.media_cache import ClipCache, PosterCache
from studio.ui.node_summary import CardStatus, NodeSummary, PosterState, status_of, summarize
from studio.ui.tree_layout import COLUMN_WIDTH, ROW_HEIGHT, Cell, layout_tree

SCENE_MARGIN = 400.0
LARGEST_VIEWPORT_PX = 7680
"""The longest side of a view the canvas is made for (an 8K screen)."""
VIEW_MARGIN_AREA = 2.25
"""How much larger than its viewport a view's request is at most: it adds a quarter of the
viewport's longest side on each side (:meth:`TreeView._viewport_moved`)."""
MAX_MATERIALIZE_CELLS = int(VIEW_MARGIN_AREA * (LARGEST_VIEWPORT_PX / (COLUMN_WIDTH * OVERVIEW_SCALE))
                            * (LARGEST_VIEWPORT_PX / (ROW_HEIGHT * OVERVIEW_SCALE)))
"""The largest rect, in layout cells, that a view asks cards for: the largest viewport at the
zoom where the overview takes over, with its margins. A larger rect is stale (asked at a zoom
that shows the overview) and makes no cards; any smaller one is what a view shows, and every
card in it must exist (4,000 cells left a full-HD window zoomed out just short of the
overview without cards)."""


class _CardLayer(QGraphicsItem):
    """An invisible parent of every card: hiding it hides all cards in one C++ call."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF()

    def paint(self, *args: object) -> None:
        pass


class TreeScene(QGraphicsScene):
    node_clicked = Signal(str)
    node_activated = Signal(str)
    node_context_menu = Signal(str, QPoint)
    layout_changed = Signal()
    folds_changed = Signal()
    """A turn was folded or unfolded (the layout changed with it)."""
    fold_toggled = Signal(str, bool, int)
    """The user folded (True) or unfolded (False) the turns after a turn (Z, or a click on its
    fold control), and how many turns that hid or showed: the status bar says so."""
    current_changed = Signal()
    """The selected turn, or what is known of it (status, takes, alternatives), may have changed."""

    def __init__(self, document: Document, resolve: Callable[[str], Path], tracker: JobTracker,
                 posters: PosterCache, clips: ClipCache, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.resolve = resolve
        self.tracker = tracker
        self.posters = posters
        self.clips = clips
        self.setBackgroundBrush(palette.BACKGROUND)
        # Cards are created only near the viewport and the layers span the whole tree, so a
        # linear scan beats a BSP tree that must be rebuilt whenever cards are added.
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.cards: dict[str, CardItem] = {}
        self.cells: dict[str, Cell] = {}
        self._tree_rect = self._bounds({})
        self._grid: dict[tuple[int, int], str] = {}
        self.branch_count = 1
        """How many branches the story has (the layout gives each its own row)."""
        self._statuses: dict[str, CardStatus] = {}
        self._visible: QRectF | None = None
        self._branch_set: set[str] = set()
        self._structure: dict[str, tuple[str | None, int]] = {}
        self._card_layer = _CardLayer()
        self.addItem(self._card_layer)
        self.edges = EdgeLayer()
        self.addItem(self.edges)
        self.overview = OverviewLayer()
        self.overview.setVisible(False)
        self.addItem(self.overview)
        self.current_id: str | None = None
        self.branch_ids: list[str] = []
        self.search_hits: set[str] = set()
        self._poster_waiters: dict[str, set[str]] = {}
        self._hover_timer = QTimer(self)
        """Cycles the clip frames of the card under the mouse. The scene's, not the card's: a
        card's own timer outlived the card when its scene went (the window closed with the
        mouse on a card) and ticked on a deleted item ten times a second."""
        self._hover_timer.setInterval(HOVER_FRAME_MS)
        self._hover_timer.timeout.connect(self._next_hover_frame)
        self._hovered: CardItem | None = None
        self._clip_waiters: dict[str, set[str]] = {}
        self.folded: set[str] = set()
        """The turns whose following turns are hidden."""
        self._hidden_counts: dict[str, int] = {}
        self.clips_gone: set[str] = set()
        """Stored clip paths found missing (the workspace looks: see Workspace.check_clips)."""
        self._seen_tree = document.tree
        """The story as the last change set left it: a take that a change removes is looked up
        there, since the story after the change no longer says which turn it belonged to."""
        posters.ready.connect(self._on_poster_ready)
        posters.failed.connect(self._on_poster_ready)  # the card then says "picture missing"
        clips.ready.connect(self._on_clip_ready)
        self.rebuild()

    # -- media for cards --------------------------------------------------------------------

    def poster(self, rel: str) -> QImage | None:
        path = self._absolute(rel)
        if not path:
            return None
        image = self.posters.get(path)
        if image is None:
            self._poster_waiters.setdefault(path, set()).update(self._nodes_with_poster(rel))
        return image

    def poster_state(self, rel: str) -> PosterState:
        """Why :meth:`poster` gave no image: none to show, still loading, or missing."""
        return self.posters.state(rel, self._absolute(rel))

    def clip_frames(self, rel: str) -> tuple[list[QImage], float] | None:
        path = self._absolute(rel)
        if not path:
            return None
        clip = self.clips.get(path)
        if clip is None:
            self._clip_waiters.setdefault(path, set()).update(
                n for n, c in self.cards.items() if c.summary.clip_path == rel)
        return clip

    def _absolute(self, rel: str) -> str:
        if not rel:
            return ""
        try:
            return str(self.resolve(rel))
        except Exception:
            return ""

    def _nodes_with_poster(self, rel: str) -> list[str]:
        return [n for n, c in self.cards.items() if c.summary.poster_path == rel]

    def _on_poster_ready(self, path: str) -> None:
        for node_id in self._poster_waiters.pop(path, ()):
            card = self.cards.get(node_id)
            if card is not None:
                card.update()

    def _on_clip_ready(self, path: str) -> None:
        for node_id in self._clip_waiters.pop(path, ()):
            card = self.cards.get(node_id)
            if card is not None:
                card.update()

    def start_hover_frames(self, card: CardItem) -> None:
        """Cycle ``card``'s clip frames (the mouse is on it) until :meth:`stop_hover_frames`."""
        self._hovered = card
        self._hover_timer.start()

    def stop_hover_frames(self, card: CardItem) -> None:
        if self._hovered is card:
            self._hovered = None
            self._hover_timer.stop()

    def _next_hover_frame(self) -> None:
        card = self._hovered
        if card is None or self.cards.get(card.node_id) is not card:
            self._hovered = None  # its card was removed (its turn deleted) under the mouse
            self._hover_timer.stop()
            return
        card.next_hover_frame()

    # -- building ----------------------------------------------------------------------------

    def _summary(self, node_id: str) -> NodeSummary:
        summary = summarize(self.document.tree, node_id, self.tracker.for_node(node_id))
        if summary.clip_path and summary.clip_path in self.clips_gone:
            return replace(summary, clip_missing=True)
        return summary

    def _status(self, node_id: str) -> CardStatus:
        return status_of(self.document.tree, node_id, self.tracker.for_node(node_id))

    def status(self, node_id: str) -> CardStatus | None:
        """A node's status, whether or not its card exists yet."""
        return self._statuses.get(node_id)

    def rebuild(self) -> None:
        """Lay out the whole tree; move or drop cards to match it.

        Cards are created lazily, only for cells the view shows (:meth:`materialize`), so
        opening a 10,000-node tree zoomed out creates none and costs the layout only.
        """
        tree = self.document.tree
        if tree._root_id is None:
            return
        self._forget_empty_folds()
        cells = layout_tree(tree.root_id, self._shown_children if self.folded else tree.child_ids)
        self._hidden_counts = {n: sum(1 for _ in tree.descendants(n)) for n in self.folded}
        structure = {n.id: (n.parent_id, n.position) for n in tree.nodes.values()}
        new_ids = [node_id for node_id in cells if node_id not in self._statuses]
        for node_id in new_ids:
            self._statuses[node_id] = self._status(node_id)
        for node_id in [n for n in self.cards if n not in cells]:
            self.removeItem(self.cards.pop(node_id))
        for node_id in [n for n in self._statuses if n not in cells]:
            del self._statuses[node_id]
        for node_id, card in self.cards.items():
            cell = cells[node_id]
            if self.cells.get(node_id) != cell:
                card.setPos(cell.x, cell.y)
            card.set_fold(bool(tree.child_ids(node_id)), self._hidden_counts.get(node_id, 0))
        self.cells = cells
        self._tree_rect = self._bounds(cells)
        self._grid = {(cell.depth, cell.row): node_id for node_id, cell in cells.items()}
        self.branch_count = 1 + max((cell.row for cell in cells.values()), default=0)  # a row per leaf
        self._structure = structure
        bounds = self.tree_rect()
        self.setSceneRect(bounds.adjusted(-SCENE_MARGIN, -SCENE_MARGIN, SCENE_MARGIN, SCENE_MARGIN))
        self.edges.rebuild(cells, {n: p for n, (p, _) in structure.items()}, bounds)
        self._update_overview()
        if self.branch_ids:
            self.edges.set_branch(self.cells, self.branch_ids)
        self.materialize(self._visible)
        self.layout_changed.emit()
        self.current_changed.emit()  # a turn added or removed beside it changes its alternatives

    def materialize(self, rect: QRectF | None) -> int:
        """Create the cards of the cells inside ``rect`` (scene coordinates) that lack one."""
        self._visible = QRectF(rect) if rect is not None else None
        if rect is None or self.overview_on or not self.cells:
            return 0
        if rect.width() * rect.height() > MAX_MATERIALIZE_CELLS * COLUMN_WIDTH * ROW_HEIGHT:
            return 0  # a stale, zoomed-out rect: the view asks again once the zoom settles
        first_depth = max(0, int((rect.left() - CARD_W) // COLUMN_WIDTH))
        last_depth = int(rect.right() // COLUMN_WIDTH) + 1
        first_row = max(0, int((rect.top() - CARD_H) // ROW_HEIGHT))
        last_row = int(rect.bottom() // ROW_HEIGHT) + 1
        wanted: list[str] = []
        if (last_depth - first_depth) * (last_row - first_row) > len(self.cells):
            wanted = [n for n, c in self.cells.items() if first_depth <= c.depth <= last_depth
                      and first_row <= c.row <= last_row and n not in self.cards]
        else:
            for depth in range(first_depth, last_depth + 1):
                for row in range(first_row, last_row + 1):
                    node_id = self._grid.get((depth, row))
                    if node_id is not None and node_id not in self.cards:
                        wanted.append(node_id)
        if not wanted:
            return 0
        summaries = {n: self._summary(n) for n in wanted if n in self.document.tree.nodes}
        for node_id, summary in summaries.items():
            cell = self.cells[node_id]
            card = CardItem(summary, self)
            card.setParentItem(self._card_layer)
            card.setPos(cell.x, cell.y)
            card.set_flags(current=node_id == self.current_id, search_hit=node_id in self.search_hits,
                           in_branch=node_id in self._branch_set)
            card.set_fold(bool(self.document.tree.child_ids(node_id)), self._hidden_counts.get(node_id, 0))
            self.cards[node_id] = card
            self._statuses[node_id] = summary.status
        return len(summaries)

    def current_summary(self) -> NodeSummary | None:
        """The selected turn's summary (its card's when it has one), None when none is selected."""
        node_id = self.current_id
        if node_id is None or node_id not in self.document.tree.nodes:
            return None
        card = self.cards.get(node_id)
        return card.summary if card is not None else self._summary(node_id)

    def tooltip(self, node_id: str) -> str:
        """A turn's tooltip with its title first, for the zoomed-out map (where its card, if it
        was made, is hidden and no title can be read)."""
        card = self.cards.get(node_id)
        if card is None and node_id not in self.document.tree.nodes:
            return ""
        return card_tooltip(card.summary if card is not None else self._summary(node_id), with_title=True)

    def node_at(self, point: QPointF) -> str | None:
        """The turn whose cell holds ``point`` (scene coordinates), the gaps between cards split
        evenly between their neighbours: on the zoomed-out map a card is a few pixels across and
        the gaps around it under one, so a click anywhere near a cell picks its turn."""
        depth = math.floor((point.x() + (COLUMN_WIDTH - CARD_W) / 2) / COLUMN_WIDTH)
        row = math.floor((point.y() + (ROW_HEIGHT - CARD_H) / 2) / ROW_HEIGHT)
        return self._grid.get((depth, row))

    def tree_rect(self) -> QRectF:
        """The laid-out tree's bounds (computed once per layout)."""
        return QRectF(self._tree_rect)

    @staticmethod
    def _bounds(cells: dict[str, Cell]) -> QRectF:
        if not cells:
            return QRectF(0, 0, CARD_W, CARD_H)
        right = max(c.x for c in cells.values()) + CARD_W
        bottom = max(c.y for c in cells.values()) + CARD_H
        return QRectF(0, 0, right, bottom)

    def _update_overview(self) -> None:
        self.overview.set_source(self.cells, self._statuses, self.tree_rect(), hits=self.search_hits,
                                 current=self.current_id)

    def set_overview(self, on: bool) -> None:
        """Far zoomed out: hide the cards and show every node as a coloured rectangle."""
        if self.overview.isVisible() != on:
            self.overview.setVisible(on)
            self._card_layer.setVisible(not on)

    @property
    def overview_on(self) -> bool:
        return self.overview.isVisible()

    # -- updates --------------------------------------------------------------------------

    def on_changes(self, changes: ChangeSet) -> None:
        tree = self.document.tree
        structural = bool(changes.added.get(EntityKind.NODE)) or bool(changes.removed.get(EntityKind.NODE))
        for node_id in changes.changed.get(EntityKind.NODE, ()):
            node = tree.nodes.get(node_id)
            if node is not None and self._structure.get(node_id) != (node.parent_id, node.position):
                structural = True
        touched = set(changes.ids(EntityKind.NODE))
        touched.update(self._nodes_of_takes(changes.ids(EntityKind.TAKE)))
        self._seen_tree = tree
        if changes.ids(EntityKind.CAST) and tree._root_id:
            touched.add(tree.root_id)
        if structural:
            self.rebuild()
        self.refresh_nodes(touched, with_descendants=True)

    def _nodes_of_takes(self, take_ids: Iterable[str]) -> set[str]:
        """The turns of ``take_ids``: from the story now, or, for a removed take (an undone
        generation, whose turn keeps its other takes), from the story before the change."""
        nodes: set[str] = set()
        for take_id in take_ids:
            take = self.document.tree.takes.get(take_id) or self._seen_tree.takes.get(take_id)
            if take is not None:
                nodes.add(take.node_id)
        return nodes

    def refresh_nodes(self, node_ids: Iterable[str], with_descendants: bool = False) -> None:
        tree = self.document.tree
        ids: set[str] = set()
        for node_id in node_ids:
            if node_id in tree.nodes:
                ids.add(node_id)
                if with_descendants:
                    ids.update(n.id for n in tree.descendants(node_id))
        summaries = {node_id: self._summary(node_id) for node_id in ids if node_id in self.cards}
        # a folded-away turn has no cell, so no status on the map
        statuses = {node_id: self._status(node_id) for node_id in ids
                    if node_id not in self.cards and node_id in self.cells}
        statuses.update({node_id: summary.status for node_id, summary in summaries.items()})
        changed_status = any(self._statuses.get(n) != status for n, status in statuses.items())
        self._statuses.update(statuses)
        for node_id, summary in summaries.items():
            self.cards[node_id].set_summary(summary)
        if changed_status:
            self._update_overview()
        if self.current_id in ids:
            self.current_changed.emit()

    # -- flags ---------------------------------------------------------------------------

    def set_current(self, node_id: str | None, branch: list[str]) -> None:
        if node_id is not None:
            self.reveal(node_id)  # the selected turn is never folded away
        old = self.cards.get(self.current_id or "")
        if old is not None:
            old.set_flags(current=False)
        self.current_id = node_id
        new = self.cards.get(node_id or "")
        if new is not None:
            new.set_flags(current=True)
        old_branch = set(self.branch_ids)
        self.branch_ids = branch
        self._branch_set = set(branch)
        for changed in old_branch.symmetric_difference(branch):
            card = self.cards.get(changed)
            if card is not None:
                card.set_flags(in_branch=changed in branch)
        self.edges.set_branch(self.cells, branch)
        self.overview.set_marks(self.search_hits, self.current_id)
        self.current_changed.emit()

    def set_search_hits(self, node_ids: Iterable[str]) -> None:
        hits = set(node_ids)
        for node_id in self.search_hits ^ hits:
            card = self.cards.get(node_id)
            if card is not None:
                card.set_flags(search_hit=node_id in hits)
        self.search_hits = hits
        self.overview.set_marks(hits, self.current_id)

    # -- folding ---------------------------------------------------------------------------

    def _shown_children(self, node_id: str) -> list[str]:
        """What the layout sees below ``node_id``: nothing when it is folded."""
        return [] if node_id in self.folded else self.document.tree.child_ids(node_id)

    def _forget_empty_folds(self) -> None:
        """Drop the folds of turns deleted, or left with nothing after them to hide."""
        tree = self.document.tree
        self.folded.difference_update([n for n in self.folded if n not in tree.nodes or not tree.child_ids(n)])

    def restore_folds(self, node_ids: Iterable[str]) -> None:
        """Fold the turns ``node_ids`` (the folds kept when the project was last closed).
        Turns deleted since, or left with nothing after them, are passed over; a fold that
        would hide the selected turn is left open, as selecting a hidden turn opens it."""
        tree = self.document.tree
        wanted = {n for n in node_ids if n in tree.nodes and tree.child_ids(n)} - self.folded
        if not wanted:
            return
        self.folded.update(wanted)
        if self.current_id is not None and self.hiding_fold(self.current_id) is not None:
            self.folded.difference_update(n.id for n in tree.path_to(self.current_id)[:-1])
        self._fold_changed()

    def can_fold(self, node_id: str | None) -> bool:
        """Whether ``node_id`` has turns after it (something to fold)."""
        return node_id is not None and node_id in self.document.tree.nodes \
            and bool(self.document.tree.child_ids(node_id))

    def is_folded(self, node_id: str | None) -> bool:
        return node_id in self.folded

    def hidden_count(self, node_id: str) -> int:
        """How many turns the fold of ``node_id`` hides (0 when it is not folded)."""
        return self._hidden_counts.get(node_id, 0)

    def fold(self, node_id: str) -> bool:
        """Hide every turn after ``node_id``. A selected turn among them is not left hidden:
        the folded turn is selected instead (through :attr:`node_clicked`, as a click does)."""
        if node_id in self.folded or not self.can_fold(node_id):
            return False
        current = self.current_id
        if current is not None and current != node_id and current in self.document.tree.nodes \
                and node_id in {n.id for n in self.document.tree.path_to(current)}:
            self.node_clicked.emit(node_id)
        self.folded.add(node_id)
        self._fold_changed()
        return True

    def unfold(self, node_id: str) -> bool:
        """Show the turns after ``node_id`` again (folds further down stay as they were)."""
        if node_id not in self.folded:
            return False
        self.folded.discard(node_id)
        self._fold_changed()
        return True

    def toggle_fold(self, node_id: str | None) -> bool:
        """Fold ``node_id`` or unfold it; False where there is nothing to fold."""
        if node_id is None:
            return False
        folding = node_id not in self.folded
        count = self.hidden_count(node_id)
        done = self.fold(node_id) if folding else self.unfold(node_id)
        if done:
            self.fold_toggled.emit(node_id, folding, self.hidden_count(node_id) if folding else count)
        return done

    def hiding_fold(self, node_id: str) -> str | None:
        """The folded turn nearest the start that hides ``node_id``, None when it is shown."""
        tree = self.document.tree
        if node_id not in tree.nodes:
            return None
        return next((n.id for n in tree.path_to(node_id)[:-1] if n.id in self.folded), None)

    def shown_turn(self, node_id: str) -> str:
        """``node_id``, or the folded card that hides it (where a move that skips folded turns stops)."""
        return self.hiding_fold(node_id) or node_id

    def layout_order(self) -> list[str]:
        """Every turn, folded away or not, row by row and each row from the left, as the
        layout places them with nothing folded (a search or the bookmark keys go through the
        hidden turns too, and selecting one unfolds it)."""
        tree = self.document.tree
        if tree._root_id is None:
            return []
        cells = layout_tree(tree.root_id, tree.child_ids) if self.folded else self.cells
        return sorted(cells, key=lambda n: (cells[n].row, cells[n].depth))

    def reveal(self, node_id: str) -> bool:
        """Unfold every turn that hides ``node_id``; whether any was folded."""
        tree = self.document.tree
        if node_id not in tree.nodes or self.hiding_fold(node_id) is None:
            return False
        self.folded.difference_update(n.id for n in tree.path_to(node_id)[:-1])
        self._fold_changed()
        return True

    def _fold_changed(self) -> None:
        self.rebuild()
        self.folds_changed.emit()
