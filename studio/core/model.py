"""Entities of the story document: nodes (turns), takes, cast members and locations.

All entities are frozen dataclasses. An edit never mutates one: a command builds new
values, and undo puts the old objects back, so undo followed by redo restores exactly the
same objects.
"""

from __future__ import annotations

import datetime as _dt
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from studio.core.instruction import Instruction
from studio.core.state import MOTION_LEVEL_MAX, MOTION_LEVEL_MIN, CharacterState, StateDeltas, StateScope
from studio.core.story import StoryFields


def new_id() -> str:
    """A short random id (10 hex digits); the CLI accepts any unique prefix of it."""
    return uuid.uuid4().hex[:10]


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")


class TakeStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Node:
    """A turn of the story (or the root, whose ``parent_id`` is None).

    Siblings are alternatives; ``position`` orders them. The root carries the story's
    starting state: ``start_state`` for every character, ``start_states`` for the cast
    members that start elsewhere (keyed by name), and ``state_scope`` (whose state a turn
    changes, see :class:`StateScope`). ``story`` holds the turn's dialogue, narration,
    duration and shot notes.
    """

    id: str
    parent_id: str | None
    instruction: Instruction
    position: int = 0
    notes: str = ""
    bookmarked: bool = False
    selected_take_id: str | None = None
    start_state: CharacterState | None = None
    created_at: str = ""
    story: StoryFields = StoryFields()
    start_states: Mapping[str, CharacterState] = field(default_factory=dict)
    state_scope: StateScope = StateScope.CHARACTER

    @property
    def is_root(self) -> bool:
        return self.parent_id is None


@dataclass(frozen=True, slots=True)
class Take:
    """One generation of a node: what the engine predicted and the clip it decoded.

    Paths are relative to the project folder. ``parent_take_id`` is the take the parent
    node had selected when this take was generated ("" when it had none); it is how the
    studio knows whether a take was made from the branch as it is now (see ``stale``).
    ``conditioning`` is the engine's JSON-able description of the clip (e.g. the end pose)
    that the next turn continues from. A failed take keeps, besides its ``error``, the
    ``hint`` the engine's error carried (what to do about it: a smaller size, the weights to
    download), which outlives the job it failed in ("" for takes made before it was kept).
    ``start_state`` is the state the take was made from (its acting character's, named by
    ``start_character``, "" where one state runs down the branch), as the turn started when
    it was generated: a start changed since shows why the take is out of date. None for
    takes made before it was kept.
    """

    id: str
    node_id: str
    engine: str
    engine_version: str = ""
    settings: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    deltas: StateDeltas = StateDeltas()
    motion_level: int = 3
    representation_path: str = ""
    clip_path: str = ""
    poster_path: str = ""
    timings: Mapping[str, float] = field(default_factory=dict)
    status: TakeStatus = TakeStatus.DONE
    error: str = ""
    warnings: tuple[str, ...] = ()
    stale: bool = False
    parent_take_id: str = ""
    instruction_raw: str = ""
    conditioning: Mapping[str, Any] = field(default_factory=dict)
    created_at: str = ""
    hint: str = ""
    start_state: CharacterState | None = None
    start_character: str = ""

    def __post_init__(self) -> None:
        if not MOTION_LEVEL_MIN <= self.motion_level <= MOTION_LEVEL_MAX:
            raise ValueError(f"motion level {self.motion_level} is outside 1..5")

    def media_paths(self) -> tuple[str, ...]:
        return tuple(p for p in (self.representation_path, self.clip_path, self.poster_path) if p)


@dataclass(frozen=True, slots=True)
class CastMember:
    """A character: render parameters for procedural engines, reference images for others."""

    id: str
    name: str
    params: Mapping[str, Any] = field(default_factory=dict)
    reference_images: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Location:
    """A place in the world: a built-in scene kind, or a user's background image."""

    id: str
    name: str
    kind: str = "builtin"
    params: Mapping[str, Any] = field(default_factory=dict)
    image_path: str = ""
