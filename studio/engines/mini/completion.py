"""The instruction the mini LM reads: the turn's own text, completed from the branch.

The LM learnt from instructions that name their character, place and time of day (its
templates name all of them), and it reads only the text of the last two turns. A turn
that says only "Motion: jump." would leave it to guess, and it guesses another character
or place. So a field the turn leaves out is added after its own text from the branch, by
the rule the studio's other engines follow (:mod:`studio.engines.continuity`): the turn's
own fields stay authoritative, and a place or time said in its free text counts as said.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from studio.core.instruction import Instruction
from studio.engines.continuity import Setting
from studio.engines.sketch.understanding import Reading, read_location, read_time


@dataclass(frozen=True, slots=True)
class Completion:
    """What the LM reads for a turn and where each part of it came from."""

    text: str
    """The turn's raw text, with the fields it leaves out added after it."""
    own: Setting
    """What the turn's own fields (and, for the character, a cast member named in its text) say."""
    filled: Setting
    """What was added from the branch ('' where nothing was)."""
    base_length: int
    """How much of :attr:`text` is the turn's own text (everything after it was added)."""

    @property
    def setting(self) -> Setting:
        return self.own.completed_by(self.filled)


def complete(instruction: Instruction, earlier: Setting, cast: Sequence[str] = ()) -> Completion:
    """``instruction``'s text completed with what ``earlier`` (the branch's setting) has and the
    turn leaves out. ``cast`` names the story's characters: one named in the free text is the
    turn's character, as the story tree attributes the turn to it."""
    character = " ".join(instruction.character.split()) or _named_in(instruction.free_text, cast)
    own = Setting(character, " ".join(instruction.background.split()), " ".join(instruction.time_of_day.split()))
    found = Reading()
    read_location(instruction, found, ())  # a place said in the free text or the motion counts as said
    read_time(instruction, found)
    said_place, said_time = bool(own.location or found.location), bool(own.time_of_day or found.time)
    filled = Setting(
        character=earlier.character if not own.character else "",
        location=earlier.location if not said_place else "",
        time_of_day=earlier.time_of_day if not said_time else "")
    base = instruction.raw.rstrip().rstrip(".。").rstrip()
    parts = []
    if filled.character:
        parts.append(f"Character: {filled.character}")
    if filled.location:
        parts.append(f"Background: {' '.join(w for w in (filled.time_of_day, filled.location) if w)}")
    elif filled.time_of_day:
        parts.append(f"Time: {filled.time_of_day}")
    text = f"{base}; {'; '.join(parts)}." if parts and base else instruction.raw
    return Completion(text=text, own=own, filled=filled, base_length=len(base) if parts else len(instruction.raw))


def _named_in(text: str, names: Iterable[str]) -> str:
    """The name in ``names`` that ``text`` mentions first, as a whole word ('' if none)."""
    best, best_at = "", len(text) + 1
    for name in names:
        words = name.split()
        if not words:
            continue
        pattern = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)"
        found = re.search(pattern, text, re.IGNORECASE)
        if found is not None and found.start() < best_at:
            best, best_at = " ".join(words), found.start()
    return best
