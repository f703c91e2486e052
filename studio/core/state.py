"""Character state and AnimeGamer's update rule.

Each of stamina, social and entertainment starts at 50 and moves by 5 x delta per turn,
where a delta is an integer in [-5, 5]; the value is clamped to 0..100.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

STAT_NAMES: tuple[str, ...] = ("stamina", "social", "entertainment")
STAT_WORDS: dict[str, str] = {"stamina": "stamina", "social": "social", "entertainment": "fun"}
"""What the user reads for each stat: the window, the exports and the command line say "fun";
"entertainment" stays the name in the engines' protocol, the database and every JSON key."""
STATE_MIN = 0
STATE_MAX = 100
STATE_START = 50
DELTA_MIN = -5
DELTA_MAX = 5
DELTA_SCALE = 5
MOTION_LEVEL_MIN = 1
MOTION_LEVEL_MAX = 5


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


@dataclass(frozen=True, slots=True)
class StateDeltas:
    """Per-turn change of each stat, in AnimeGamer's units ([-5, 5], times 5 on apply)."""

    stamina: int = 0
    social: int = 0
    entertainment: int = 0

    def __post_init__(self) -> None:
        for name in STAT_NAMES:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} delta must be an integer, got {value!r}")
            if not DELTA_MIN <= value <= DELTA_MAX:
                raise ValueError(f"{name} delta {value} is outside [{DELTA_MIN}, {DELTA_MAX}]")

    @classmethod
    def clamped(cls, stamina: float, social: float, entertainment: float) -> StateDeltas:
        """Round and clamp arbitrary numbers into valid deltas."""
        return cls(*(_clamp(round(v), DELTA_MIN, DELTA_MAX) for v in (stamina, social, entertainment)))

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in STAT_NAMES}


@dataclass(frozen=True, slots=True)
class CharacterState:
    """The three visible stats of the character after a turn."""

    stamina: int = STATE_START
    social: int = STATE_START
    entertainment: int = STATE_START

    def apply(self, deltas: StateDeltas) -> CharacterState:
        return CharacterState(
            *(
                _clamp(getattr(self, name) + DELTA_SCALE * getattr(deltas, name), STATE_MIN, STATE_MAX)
                for name in STAT_NAMES
            )
        )

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in STAT_NAMES}

    def change_from(self, before: CharacterState) -> StateChange:
        """How far each stat moved from ``before`` to this state, in points."""
        return StateChange(*(getattr(self, name) - getattr(before, name) for name in STAT_NAMES))


@dataclass(frozen=True, slots=True)
class StateChange:
    """How far a turn actually moved each stat, in points: the state after it minus the state
    before it. This, not the predicted :class:`StateDeltas` times :data:`DELTA_SCALE`, is
    what is shown beside a value: the value is clamped to 0..100, so a predicted -3 (-15
    points) from stamina 5 moves it by -5, and from stamina 0 by nothing."""

    stamina: int = 0
    social: int = 0
    entertainment: int = 0

    @classmethod
    def predicted(cls, deltas: StateDeltas) -> StateChange:
        """The change ``deltas`` asks for, in points, before any clamping."""
        return cls(*(DELTA_SCALE * getattr(deltas, name) for name in STAT_NAMES))

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in STAT_NAMES}


class TurnStates(Protocol):
    """What :func:`turn_change` reads: a story tree's states around a turn."""

    def state_before(self, node_id: str) -> CharacterState: ...

    def state_of(self, node_id: str) -> CharacterState: ...


def turn_change(tree: TurnStates, node_id: str) -> StateChange:
    """What turn ``node_id`` did to its acting character's state (in a branch-scoped story,
    the branch's state): the state after it minus the state before it. Nothing for the
    story's start and for a turn without a selected take."""
    return tree.state_of(node_id).change_from(tree.state_before(node_id))


class StateScope(StrEnum):
    """Whose state a turn changes.

    ``CHARACTER`` (new projects, as AnimeGamer: the state is a character's): a turn changes
    only its acting character's stamina, social and entertainment. ``BRANCH`` (projects
    made before per-character state): one state runs down the branch whatever character
    acts, so that those projects keep the values they were written with.
    """

    CHARACTER = "character"
    BRANCH = "branch"


def character_key(name: str) -> str:
    """How character names are compared: case and spacing don't matter ("qiqi " is Qiqi)."""
    return " ".join(name.split()).casefold()


def folded_text(text: str) -> str:
    """``text`` without case, its accents composed one way: "Ame\u0301lie" (an accent typed
    as its own character, as macOS file names and some keyboards write it) is "amélie"."""
    if text.isascii():  # the usual case, and the quick one
        return text.casefold()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", text).casefold())


def written_key(name: str) -> str:
    """:func:`character_key` with the accents composed one way: how the name a turn writes is
    matched to the cast's. The cast itself keeps names apart by :func:`character_key` (the
    window refuses a name that reads the same as another, saying why); a turn typed with
    "Ame\u0301lie" for the cast's "Amélie" was played as a stranger, from another start state,
    and a rename of Amélie passed it by."""
    return folded_text(" ".join(name.split()))
