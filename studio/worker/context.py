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
from typing import TYPE_CHECKING

from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location, Node, Take
from studio.core.state import CharacterState, StateDeltas
from studio.core.subject import unlisted_subject
from studio.engines.base import EngineInfo, EngineSettings, GenerationContext, PreviousClip, TurnContext
from studio.storage.ffmpeg import MediaError, probe
from studio.storage.paths import UnsafePathError
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

        try:
            array, metadata = read_representation(project.resolve(take.representation_path))
        except (MediaError, UnsafePathError):
            return None
        space = str(metadata.get("representation_space") or "") or legacy_space(take, array)
        stored = StoredRepresentation(array, space)
        with self._lock:
            self._items[take.id] = stored
        return stored


def _resolved_images(project: Project, cast: Iterable[CastMember], locations: Iterable[Location]
                     ) -> tuple[tuple[CastMember, ...], tuple[Location, ...], list[str]]:
    """Cast and locations with absolute image paths; a path outside the project is dropped."""
    warnings: list[str] = []
    members: list[CastMember] = []
    for member in cast:
        images: list[str] = []
        for rel in member.reference_images:
            try:
                images.append(str(project.resolve(rel)))
            except UnsafePathError as error:
                warnings.append(f"Character {member.name!r}: {error.message} The image was not used.")
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
    return tuple(members), tuple(places), warnings


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
    members, places, warnings = _resolved_images(project, cast, locations)
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
