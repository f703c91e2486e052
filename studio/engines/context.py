"""What an engine knows when it generates a turn: the branch above it and the world.

The worker builds the context from the document; every path in it is absolute and
inside the project. A turn's representation reaches an engine only when it was made in
the engine's own representation space; instruction, state and motion level always do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location
from studio.core.state import CharacterState, StateDeltas

if TYPE_CHECKING:  # numpy is imported when frames are made, not when the window opens
    import numpy as np


@dataclass(frozen=True, slots=True)
class TurnContext:
    """One earlier turn of the branch, tagged with what made its take."""

    instruction: Instruction
    state: CharacterState
    deltas: StateDeltas
    motion_level: int
    engine: str = ""
    """The engine that made the turn's selected take ("" when the turn has none)."""
    representation_space: str = ""
    """The space of that take's representation ("" when unknown or absent)."""
    representation: np.ndarray | None = None
    """Present only when ``representation_space`` is the generating engine's space."""
    conditioning: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PreviousClip:
    """The clip of the parent turn's selected take, for engines that continue from it."""

    path: Path
    frame_count: int
    fps: float
    engine: str


@dataclass(frozen=True, slots=True)
class GenerationContext:
    """The branch and the world as an engine sees them.

    ``history`` runs from the first turn to the parent of the turn being generated, cut
    to the engine's history window; ``state`` is the state the new turn starts from.
    Cast reference images and location images are absolute paths inside the project.
    """

    state: CharacterState = CharacterState()
    history: tuple[TurnContext, ...] = ()
    cast: tuple[CastMember, ...] = ()
    locations: tuple[Location, ...] = ()
    previous_clip: PreviousClip | None = None

    @property
    def previous(self) -> TurnContext | None:
        return self.history[-1] if self.history else None
