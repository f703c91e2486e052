"""Building a :class:`GenerationContext` from the branch above a node.

The context is built when a job starts, not when it is queued, so that a turn queued
behind its parent (re-roll branch) is generated from the parent's new take. The tree is
read from one snapshot of the tree (it never changes), without any lock.
Representations are tagged with the space that made them and reach only engines of that
space.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from studio.core.errors import StudioError
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location, Node, Take
from studio.core.state import CharacterState, StateDeltas, written_key
from studio.core.subject import unlisted_subject
from studio.engines.base import EngineInfo, EngineSettings, GenerationContext, PreviousClip, TurnContext
from studio.storage.ffmpeg import MediaError, probe
from studio.storage.paths import UnsafePathError, file_there
from studio.storage.project import Project

if TYPE_CHECKING:  # the window's worker path stays light: numpy comes with the engine or the media reader
    import numpy as np


class NodeGone(Exception):  # noqa: N818 - an outcome: the node was deleted (e.g. undone)
    """The job's node no longer exists."""


@dataclass(frozen=True)
class ContextSnapshot:
    """What a generate job needs from the document, read at one moment."""

    node: Node
    instruction: Instruction
    parent_take_id: str
    parent_state: CharacterState
    context: GenerationContext
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StoredRepresentation:
    """A take's representation as read from its file, with the space it belongs to."""

    array: np.ndarray
    space: str


def history_window(info: EngineInfo, settings: EngineSettings) -> int:
    """How many earlier turns the engine reads: its settings' ``history_window`` when it has
    one, else what its capabilities declare."""
    chosen = settings.value("history_window")
    window = int(chosen) if isinstance(chosen, int) and not isinstance(chosen, bool) else None
    return max(0, info.capabilities.history_window if window is None else window)


class RepresentationCache:
    """Recently used representations by take id (the worker just wrote most of them)."""

    def __init__(self, capacity: int = 32) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, StoredRepresentation] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, take_id: str, representation: np.ndarray, space: str) -> None:
        with self._lock:
            self._items[take_id] = StoredRepresentation(representation, space)
            self._items.move_to_end(take_id)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def get(self, project: Project, take: Take, legacy_space: Callable[[Take, np.ndarray], str]
            ) -> StoredRepresentation | None:
        """The take's representation; ``legacy_space`` names the space of a file written
        before representations were tagged with one."""
        with self._lock:
            hit = self._items.get(take.id)
            if hit is not None:
                self._items.move_to_end(take.id)
                return hit
        if not take.representation_path:
            return None
        from studio.storage.media import read_representation  # numpy: when a representation is read

        rel = take.representation_path
        try:  # opened a part at a time, following no link: a file swapped for one is never read
            array, metadata = read_representation(project.path / rel, project.open_media(rel))
        except (MediaError, UnsafePathError, OSError):
            return None
        space = str(metadata.get("representation_space") or "") or legacy_space(take, array)
        stored = StoredRepresentation(array, space)
        with self._lock:
            self._items[take.id] = stored
        return stored


@dataclass(frozen=True, slots=True)
class DroppedView:
    """A character's reference view left out of the context, and why."""

    member: CastMember
    position: int
    """Its place among the character's views, from 1."""
    rel: str
    reason: str
    dropped: bool = True
    """False for a view kept in the context whose file is missing (the engine would fail on it)."""

    def describe(self) -> str:
        """``"Aoi's back view (media/characters/back-view-1a2b.png) was left out: ..."``."""
        name = self.member.name
        side = _side_of(self.rel)
        view = f"{side} view" if side else f"reference view {self.position} of {len(self.member.reference_images)}"
        what = "was left out" if self.dropped else "can't be used"
        return f"{name}'s {view} ({self.rel or 'an empty path'}) {what}: {self.reason}"


class ReferenceViewError(StudioError):
    """A view the turn's character needs was left out (its path leads outside the project) or
    its file is missing."""


_SIDES = ("front", "left", "back", "right")


def _side_of(rel: str) -> str:
    """The side a view's stored name says (``media/characters/back-view-<id>.png``), or ""."""
    stem = PurePosixPath(rel.replace("\\", "/")).name.lower()
    return next((side for side in _SIDES if stem.startswith(f"{side}-view-")), "")


def _resolved_images(project: Project, cast: Iterable[CastMember], locations: Iterable[Location]
                     ) -> tuple[tuple[CastMember, ...], tuple[Location, ...], list[str], list[DroppedView]]:
    """Cast and locations with absolute image paths; a path outside the project is dropped,
    and each dropped reference view is told (the warnings name the view, its path and why).
    A view whose file is missing is kept (an engine that reads no views needs none), and
    listed with the dropped ones for :func:`check_views_kept`."""
    warnings: list[str] = []
    dropped: list[DroppedView] = []
    members: list[CastMember] = []
    for member in cast:
        images: list[str] = []
        for position, rel in enumerate(member.reference_images, start=1):
            try:
                path = project.resolve(rel)
                images.append(str(path))
                if file_there(path) is False:
                    dropped.append(DroppedView(member, position, rel, "the file is missing.", dropped=False))
            except UnsafePathError as error:
                said = f"Refused the path {rel!r}: "  # the path is named once, beside the view
                reason = error.message.removeprefix(said) if error.message.startswith(said) else error.message
                view = DroppedView(member, position, rel, reason)
                dropped.append(view)
                warnings.append(f"{view.describe()} The view was not used.")
        members.append(replace(member, reference_images=tuple(images)))
    places: list[Location] = []
    for location in locations:
        if location.image_path:
            try:
                location = replace(location, image_path=str(project.resolve(location.image_path)))
            except UnsafePathError as error:
                warnings.append(f"Location {location.name!r}: {error.message} The image was not used.")
                location = replace(location, image_path="")
        places.append(location)
    return tuple(members), tuple(places), warnings, dropped


def _animated_member(members: tuple[CastMember, ...], character: str) -> CastMember | None:
    """The cast member an engine that animates one character from reference views takes for a
    turn: the one the instruction's Character field names (matched as turns match the cast),
    else the first with views left."""
    key = written_key(character)
    named = next((m for m in members if key and written_key(m.name) == key), None)
    return named or next((m for m in members if m.reference_images), None)


def check_views_kept(info: EngineInfo, members: tuple[CastMember, ...], character: str,
                     dropped: Iterable[DroppedView]) -> None:
    """Refuse the turn (:class:`ReferenceViewError`) when the engine animates a character from
    reference views and one of the views of the character it would take was left out: the
    engine itself would only see fewer views ("Aoi has 3") and could not say which view went,
    nor why. Views of other characters only warn."""
    needed = info.capabilities.reference_views
    if needed <= 0:
        return
    dropped = list(dropped)
    chosen = _animated_member(members, character)
    if chosen is None:  # every view of every character went: the named one's, else the first's
        key = written_key(character)
        named = [view for view in dropped if key and written_key(view.member.name) == key]
        first = [view for view in dropped if dropped and view.member.id == dropped[0].member.id]
        lost = named if key else first
    else:
        lost = [view for view in dropped if view.member.id == chosen.id]
    if not lost:
        return
    member = lost[0].member
    told = " ".join(view.describe() for view in lost)
    kept = len(member.reference_images) - len(lost)
    raise ReferenceViewError(
        f"{told} The engine {info.name!r} needs {needed} reference views of {member.name}; {kept} of its "
        f"{len(member.reference_images)} can be used.",
        hint=f"Choose the view again in the cast panel (select {member.name}, then Reference views…), so that "
             "it is copied into the project.")


def _previous_clip(project: Project, take: Take | None) -> PreviousClip | None:
    if take is None or not take.clip_path:
        return None
    try:
        path = project.resolve(take.clip_path)
    except UnsafePathError:
        return None
    if not path.is_file():
        return None
    used = take.settings if isinstance(take.settings, Mapping) else {}
    try:
        frames, fps = int(used.get("frames", 0) or 0), float(used.get("fps", 0) or 0)
    except (TypeError, ValueError):
        frames, fps = 0, 0.0
    if frames <= 0 or fps <= 0:  # an engine without these settings: ask the file
        try:
            info = probe(path)
        except MediaError:
            return None
        frames, fps = info.frames, float(info.fps)
    return PreviousClip(path=path, frame_count=frames, fps=fps, engine=take.engine)


def build_context(
    project: Project,
    node_id: str,
    info: EngineInfo,
    settings: EngineSettings,
    cache: RepresentationCache | None = None,
    legacy_space: Callable[[Take, np.ndarray], str] | None = None,
) -> ContextSnapshot:
    """The context for generating a new take of ``node_id`` with the engine ``info``.

    History is cut to the engine's window; a turn's representation is passed only when
    it is in the engine's own space (checked by space id and by shape).
    """
    tree = project.tree  # a snapshot: it never changes while the context is built
    node = tree.nodes.get(node_id)
    if node is None:
        raise NodeGone(node_id)
    if node.parent_id is None:
        raise NodeGone(node_id)
    path = tree.path_to(node_id)
    turns = path[1:-1]
    window = history_window(info, settings)
    turns = turns[len(turns) - window:] if window else []
    selected = [tree.selected_take(n.id) for n in turns]
    states = [tree.state_of(n.id) for n in turns]
    parent_state = tree.state_before(node_id)  # the acting character's state
    parent_take = tree.selected_take(node.parent_id)
    cast = list(tree.cast.values())
    locations = list(tree.locations.values())

    spec = info.capabilities.representation
    history: list[TurnContext] = []
    for turn, take, state in zip(turns, selected, states, strict=True):
        stored = None
        if take is not None and cache is not None:
            stored = cache.get(project, take, legacy_space or (lambda _take, _array: ""))
        representation = None
        space = stored.space if stored is not None else ""
        if stored is not None and space == spec.space and tuple(stored.array.shape) == tuple(spec.shape):
            representation = stored.array
        history.append(TurnContext(
            instruction=turn.instruction,
            state=state,
            deltas=take.deltas if take is not None else StateDeltas(),
            motion_level=take.motion_level if take is not None else 3,
            engine=take.engine if take is not None else "",
            representation_space=space,
            representation=representation,
            conditioning=dict(take.conditioning) if take is not None else {},
        ))
    members, places, warnings, dropped = _resolved_images(project, cast, locations)
    check_views_kept(info, members, node.instruction.character, dropped)
    unlisted = unlisted_subject(tree, node_id)
    if unlisted:
        warnings.insert(0, unlisted)
    previous = _previous_clip(project, parent_take) if info.capabilities.continuation else None
    context = GenerationContext(state=parent_state, history=tuple(history), cast=members, locations=places,
                                previous_clip=previous)
    return ContextSnapshot(
        node=node,
        instruction=node.instruction,
        parent_take_id=parent_take.id if parent_take is not None else "",
        parent_state=parent_state,
        context=context,
        warnings=tuple(warnings),
    )
