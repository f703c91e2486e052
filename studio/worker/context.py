"""Building a :class:`GenerationContext` from the branch above a node.

The context is built when a job starts, not when it is queued, so that a turn queued
behind its parent (re-roll branch) is generated from the parent's new take. The tree is
read under the document lock; entities are frozen, so the snapshot stays valid after.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from studio.core.instruction import Instruction
from studio.core.model import Location, Node, Take
from studio.core.state import CharacterState, StateDeltas
from studio.engines.base import Engine, GenerationContext, TurnContext
from studio.storage.media import MediaError, read_representation
from studio.storage.paths import UnsafePathError
from studio.storage.project import Project

HISTORY_REPRESENTATIONS = 8
"""At most this many of the latest turns carry their representation (a long branch would
otherwise read megabytes per job); engines that want more read ``settings['history_window']``."""


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
    settings: Mapping[str, Any]
    warnings: tuple[str, ...] = ()


def engine_defaults(engine: Engine) -> dict[str, Any]:
    """An engine's default settings: its own ``default_settings`` if it has one, else
    the sizes its capabilities declare."""
    own = getattr(engine, "default_settings", None)
    if callable(own):
        own = own()
    if isinstance(own, Mapping):
        return dict(own)
    caps = engine.capabilities
    height, width = caps.default_size
    return {"height": height, "width": width, "frames": caps.default_frames, "fps": caps.default_fps}


def merged_settings(engine: Engine, overrides: Mapping[str, Any]) -> dict[str, Any]:
    return {**engine_defaults(engine), **dict(overrides)}


class RepresentationCache:
    """Recently used representations by take id (the worker just wrote most of them)."""

    def __init__(self, capacity: int = 32) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, take_id: str, representation: np.ndarray) -> None:
        with self._lock:
            self._items[take_id] = representation
            self._items.move_to_end(take_id)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def get(self, project: Project, take: Take) -> np.ndarray | None:
        with self._lock:
            hit = self._items.get(take.id)
            if hit is not None:
                self._items.move_to_end(take.id)
                return hit
        if not take.representation_path:
            return None
        try:
            representation = read_representation(project.resolve(take.representation_path))
        except (MediaError, UnsafePathError):
            return None
        self.put(take.id, representation)
        return representation


def _locations(project: Project, locations: list[Location]) -> tuple[tuple[Location, ...], list[str]]:
    """Locations with absolute image paths; a path outside the project is refused."""
    out: list[Location] = []
    warnings: list[str] = []
    for location in locations:
        if location.image_path:
            try:
                location = replace(location, image_path=str(project.resolve(location.image_path)))
            except UnsafePathError as error:
                warnings.append(f"Location {location.name!r}: {error.message} The image was not used.")
                location = replace(location, image_path="")
        out.append(location)
    return tuple(out), warnings


def build_context(
    project: Project,
    node_id: str,
    engine: Engine,
    job_settings: Mapping[str, Any],
    cache: RepresentationCache | None = None,
) -> ContextSnapshot:
    """The context for generating a new take of ``node_id`` with ``engine``."""
    document = project.document
    with document.lock:
        tree = document.tree
        node = tree.nodes.get(node_id)
        if node is None:
            raise NodeGone(node_id)
        if node.parent_id is None:
            raise NodeGone(node_id)
        path = tree.path_to(node_id)
        turns = path[1:-1]
        selected = [tree.selected_take(n.id) for n in turns]
        states = [tree.state_of(n.id) for n in turns]
        parent_state = tree.state_of(node.parent_id)
        parent_take = tree.selected_take(node.parent_id)
        cast = tuple(tree.cast.values())
        locations = list(tree.locations.values())

    settings = merged_settings(engine, job_settings)
    wants_history = bool(engine.capabilities.multi_turn_history)
    window = int(settings.get("history_window", HISTORY_REPRESENTATIONS)) if wants_history else 0
    history: list[TurnContext] = []
    for index, (turn, take, state) in enumerate(zip(turns, selected, states, strict=True)):
        representation = None
        if take is not None and index >= len(turns) - window and cache is not None:
            representation = cache.get(project, take)
        history.append(TurnContext(
            instruction=turn.instruction,
            state=state,
            deltas=take.deltas if take is not None else StateDeltas(),
            motion_level=take.motion_level if take is not None else 3,
            representation=representation,
            conditioning=dict(take.conditioning) if take is not None else {},
        ))
    resolved, warnings = _locations(project, locations)
    context = GenerationContext(
        state=parent_state, history=tuple(history), cast=cast, locations=resolved, settings=settings,
    )
    return ContextSnapshot(
        node=node,
        instruction=node.instruction,
        parent_take_id=parent_take.id if parent_take is not None else "",
        parent_state=parent_state,
        context=context,
        settings=settings,
        warnings=tuple(warnings),
    )
