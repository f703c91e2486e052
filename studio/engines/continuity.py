"""What a turn continues from the branch above it: its character, place and time of day.

A turn that does not name one of them keeps the one of the nearest earlier turn that has it:
that turn's own instruction field, else what was filled in for it (``CONTINUED_KEY`` of its
take's conditioning), else what its take read (the conditioning keys ``character``,
``location`` and ``time_of_day`` that the sketch engine writes and the mini engine's readings
use). What was filled in comes before a model's reading, so that one misread turn does not
carry another character or place down the branch. Pure Python: engines share it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from studio.engines.context import TurnContext

CONTINUED_KEY = "filled_from_branch"
"""The conditioning key under which an engine records what it took from earlier turns
(a mapping of ``character`` / ``location`` / ``time_of_day`` to the value filled in)."""


@dataclass(frozen=True, slots=True)
class Setting:
    """A turn's character, place and time of day ('' where unknown), under the conditioning's keys."""

    character: str = ""
    location: str = ""
    time_of_day: str = ""

    def missing(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self) if not getattr(self, f.name))

    def completed_by(self, earlier: Setting) -> Setting:
        """This setting with its blanks taken from ``earlier``."""
        return replace(self, **{name: getattr(earlier, name) for name in self.missing()})

    def as_dict(self) -> dict[str, str]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}


def turn_setting(turn: TurnContext) -> Setting:
    """What ``turn`` had: its instruction's fields, else what was filled in for it, else its reading."""
    instruction = turn.instruction
    own = Setting(_clean(instruction.character), _clean(instruction.background), _clean(instruction.time_of_day))
    conditioning = turn.conditioning if isinstance(turn.conditioning, Mapping) else {}
    return own.completed_by(_from_mapping(conditioning.get(CONTINUED_KEY))).completed_by(_from_mapping(conditioning))


def branch_setting(history: Iterable[TurnContext]) -> Setting:
    """The character, place and time a new turn continues: for each, the nearest earlier turn's
    (``history`` runs from the first turn to the parent)."""
    found = Setting()
    for turn in reversed(tuple(history)):
        if not found.missing():
            break
        found = found.completed_by(turn_setting(turn))
    return found


def _from_mapping(value: Any) -> Setting:
    if not isinstance(value, Mapping):
        return Setting()
    return Setting(*(_clean(value.get(name)) for name in ("character", "location", "time_of_day")))


def _clean(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""
