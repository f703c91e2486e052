"""The document: a story tree plus undo/redo, a persistence hook and change listeners."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from studio.core.changes import ChangeSet, Entity, EntityKey, EntityKind, Patch
from studio.core.commands import Command
from studio.core.model import Node, Take
from studio.core.tree import StoryTree

Persist = Callable[[Patch], None]
Listener = Callable[[ChangeSet], None]
T = TypeVar("T")
RunOnWriter = Callable[[Callable[[], T]], T]
"""Runs a change on the one writer (its thread) and returns what it returned."""


@dataclass(frozen=True)
class UndoEntry:
    label: str
    forward: Patch
    reverse: Patch
    group: str = ""
    """The :attr:`UndoGroup.key` of the changes this entry holds ("" for one change on its own)."""
    count: int = 1
    """How many changes of its group the entry holds."""


@dataclass(frozen=True)
class UndoGroup:
    """Changes of one action of the user that land one at a time (the takes of a branch
    re-roll, made by a job each): a change of the group that lands while the newest undo
    entry holds the group's earlier ones joins that entry, so that one Undo takes them all
    back. Anything done in between (an edit, another take) starts a new entry.

    ``key`` tells the group from any other; ``total`` is how many changes the action will
    make (0: not known), ``unit`` what one of them is called in the entry's label."""

    key: str
    total: int = 0
    unit: str = "change"

    def label(self, base: str, count: int) -> str:
        """``base`` with how many of the group's changes the entry holds, e.g.
        "Re-roll branch (3 of 6 turns)"; just ``base`` for a group of one."""
        if count <= 1 and self.total <= 1:
            return base
        if count < self.total:
            return f"{base} ({count} of {self.total} {self.unit}s)"
        return f"{base} ({count} {self.unit}{'s' if count != 1 else ''})"


def merged(first: UndoEntry, then: UndoEntry, label: str) -> UndoEntry:
    """One entry for ``first`` followed at once by ``then``: forward applies both (``then``'s
    snapshot of an entity both wrote is the newer), reverse restores what was there before
    ``first`` (an entity only ``then`` wrote was, before it, as it was before ``first``)."""
    return UndoEntry(label, {**first.forward, **then.forward}, {**then.reverse, **first.reverse},
                     group=first.group, count=first.count + then.count)


class UndoStack:
    """Linear undo history; a new command clears what could be redone."""

    def __init__(self, limit: int = 1000) -> None:
        self.limit = limit
        self.done: list[UndoEntry] = []
        self.undone: list[UndoEntry] = []

    def push(self, entry: UndoEntry, *, independent: bool = False, lineage: frozenset[str] = frozenset()) -> None:
        """Add ``entry``. ``independent``: a change the user didn't make now (a finished
        generation's take) keeps what could be redone when it touches none of the entities
        those entries touch, nor any turn of ``lineage``: patches are snapshots of entities,
        so disjoint ones give the same story in either order, and a take arriving in the
        background must not take away the user's redo.

        ``lineage`` (see :func:`lineage_of`) names the turns a take's existence and freshness
        depend on or decide without the patches sharing an entity: redoing the deletion of its
        turn left the take without one (the redo failed on the database's foreign key), and
        redoing an edit of a turn above it left it fresh though it was made from the old text."""
        self.done.append(entry)
        del self.done[: -self.limit]
        self._keep_redo_if(independent, entry, lineage)

    def join(self, entry: UndoEntry, *, label: str, independent: bool = False,
             lineage: frozenset[str] = frozenset()) -> UndoEntry | None:
        """Merge ``entry`` into the newest entry when both belong to the same group (see
        :class:`UndoGroup`), naming the result ``label``; None (nothing done) otherwise. What
        could be redone is kept or cleared as :meth:`push` would for ``entry`` alone: the
        newest entry's own changes were already weighed when they came."""
        top = self.done[-1] if self.done else None
        if top is None or not entry.group or top.group != entry.group:
            return None
        self.done[-1] = merged(top, entry, label)
        self._keep_redo_if(independent, entry, lineage)
        return self.done[-1]

    def _keep_redo_if(self, independent: bool, entry: UndoEntry, lineage: frozenset[str]) -> None:
        if not (independent and self._disjoint_from_undone(entry, lineage)):
            self.undone.clear()

    def _disjoint_from_undone(self, entry: UndoEntry, lineage: frozenset[str]) -> bool:
        touched = entry.forward.keys() | entry.reverse.keys()
        return all(touched.isdisjoint(undone.forward.keys() | undone.reverse.keys())
                   and lineage.isdisjoint(turns_touched(undone)) for undone in self.undone)

    @property
    def undo_label(self) -> str | None:
        return self.done[-1].label if self.done else None

    @property
    def redo_label(self) -> str | None:
        return self.undone[-1].label if self.undone else None


def turns_touched(entry: UndoEntry) -> set[str]:
    """The turns ``entry`` changes, creates or removes, with the turns its takes belong to
    and the parents of the turns it creates or removes (on redo they gain or lose a child)."""
    turns: set[str] = set()
    for patch in (entry.forward, entry.reverse):
        for (kind, entity_id), entity in patch.items():
            if kind is EntityKind.NODE:
                turns.add(entity_id)
                if isinstance(entity, Node) and entity.parent_id is not None:
                    turns.add(entity.parent_id)
            elif isinstance(entity, Take):
                turns.add(entity.node_id)
    return turns


def lineage_of(tree: StoryTree, patch: Patch) -> frozenset[str]:
    """The turns whose text, chosen take or existence decide whether ``patch``'s takes are
    fresh and have a turn, or whose takes ``patch`` makes stale: each turn it touches (a
    take: its turn), every turn above it but the start (which has no take to be made from)
    and every turn below it, in ``tree`` as it was before ``patch``."""
    touched: set[str] = set()
    for (kind, entity_id), entity in patch.items():
        if kind is EntityKind.NODE:
            touched.add(entity_id)
        elif kind is EntityKind.TAKE:
            take = entity if isinstance(entity, Take) else tree.takes.get(entity_id)
            if take is not None:
                touched.add(take.node_id)
    found: set[str] = set()
    for node_id in touched & tree.nodes.keys():
        found.update(node.id for node in tree.path_to(node_id) if node.parent_id is not None)
        found.update(node.id for node in tree.descendants(node_id))
    return frozenset(found | touched)


class Document:
    """Applies commands to a tree, writing each through ``persist`` before it counts.

    ``persist`` (the project store) writes a patch in one transaction; if it raises, the
    tree is left as it was. Each change builds a new tree and then publishes it as
    :attr:`tree`: a reader takes ``document.tree`` once and holds an immutable snapshot,
    without any lock. Changes are serialised among themselves (in the studio they all
    run on the worker's writer thread). Listeners are called after every change, on the
    thread that made it (a GUI adapter marshals them to its own thread).
    """

    def __init__(self, tree: StoryTree, persist: Persist | None = None) -> None:
        self.tree = tree
        self.persist = persist
        self.history = UndoStack()
        self._listeners: list[Listener] = []
        self._changing = threading.RLock()
        self.writer: RunOnWriter[object] | None = None
        """Set by the worker's writer: every change then runs on its thread."""

    def change(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` (which may read the tree and apply commands) as one change: on the
        writer when there is one, and never interleaved with another change."""
        def locked() -> T:
            with self._changing:
                return fn()

        if self.writer is None:
            return locked()
        return self.writer(locked)  # type: ignore[return-value]  # the writer returns fn's value

    def snapshot(self) -> StoryTree:
        """The current tree; it never changes after it is returned."""
        return self.tree

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _commit(self, patch: Patch, label: str) -> tuple[dict[EntityKey, Entity | None], ChangeSet]:
        tree, reverse, changes = self.tree.evolved(patch, label)
        if self.persist is not None and patch:
            self.persist(patch)
        self.tree = tree
        for listener in list(self._listeners):
            listener(changes)
        return reverse, changes

    def apply(self, command: Command, *, undoable: bool = True, background: bool = False,
              group: UndoGroup | None = None) -> ChangeSet:
        """Apply ``command`` as one change. ``background``: not the user's edit of this moment
        (a finished generation), which leaves the redo history where it is independent of it.
        ``group``: the change is one of several of one action, undone together while nothing
        else came between them (see :class:`UndoGroup`)."""
        return self.change(lambda: self._apply(command, undoable, background, group))

    def undo(self) -> ChangeSet | None:
        return self.change(self._undo)

    def redo(self) -> ChangeSet | None:
        return self.change(self._redo)

    def _apply(self, command: Command, undoable: bool, background: bool = False,
               group: UndoGroup | None = None) -> ChangeSet:
        with self._changing:
            before = self.tree
            patch = dict(command.build(before))
            reverse, changes = self._commit(patch, command.label)
            if undoable and patch:
                related = lineage_of(before, patch) if background and self.history.undone else frozenset()
                key = group.key if group is not None else ""
                entry = UndoEntry(command.label, patch, reverse, group=key)
                top = self.history.done[-1] if self.history.done else None
                count = top.count + 1 if top is not None and key and top.group == key else 1
                label = group.label(command.label, count) if group is not None else command.label
                if self.history.join(entry, label=label, independent=background, lineage=related) is None:
                    self.history.push(replace(entry, label=label), independent=background, lineage=related)
            elif patch:
                # Undo entries hold snapshots; one taken before this change could restore
                # a state that no longer fits, so a change outside the history ends it.
                self.history.done.clear()
                self.history.undone.clear()
            return changes

    def _undo(self) -> ChangeSet | None:
        with self._changing:
            if not self.history.done:
                return None
            entry = self.history.done[-1]
            _, changes = self._commit(entry.reverse, f"Undo {entry.label}")
            self.history.undone.append(self.history.done.pop())
            return changes

    def _redo(self) -> ChangeSet | None:
        with self._changing:
            if not self.history.undone:
                return None
            entry = self.history.undone[-1]
            _, changes = self._commit(entry.forward, f"Redo {entry.label}")
            self.history.done.append(self.history.undone.pop())
            return changes
