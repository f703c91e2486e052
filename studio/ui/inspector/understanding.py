"""What the engine made of an instruction, as chips: motion, place, time, camera, level,
character, and one chip per warning. Qt-free: the chip widget draws these.

The facts come from the take's conditioning (what the engine actually used) and its
warnings; a chip names the author's word it came from, so that clicking it can replace
that word with one the engine knows (see :func:`replace_field`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from studio.core.commands import name_pattern
from studio.core.instruction import Instruction, time_note, time_shown
from studio.core.model import Take
from studio.core.state import character_key
from studio.core.tree import StoryTree


class ChipField(StrEnum):
    CHARACTER = "character"
    MOTION = "motion"
    PLACE = "place"
    TIME = "time"
    CAMERA = "camera"
    LEVEL = "level"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Chip:
    field: ChipField
    text: str
    """What the chip shows ("motion: wave")."""
    word: str = ""
    """The author's word the engine read ('' when the engine chose on its own)."""
    warning: bool = False
    tooltip: str = ""


_QUOTED = re.compile(r"(?<!\w)'(.+?)'(?!\w)")
"""A word or name a warning quotes: an apostrophe inside it ("'Grandma's Garden'") closes nothing."""
LEVEL_WORDS = {1: "very calm", 2: "calm", 3: "normal", 4: "lively", 5: "very lively"}


def _own_words(instruction: Instruction) -> dict[ChipField, str]:
    return {
        ChipField.CHARACTER: instruction.character,
        ChipField.MOTION: " ".join(p for p in (instruction.adverb, instruction.motion) if p),
        ChipField.PLACE: instruction.background,
        ChipField.TIME: instruction.time_of_day,
        ChipField.CAMERA: instruction.camera,
    }


def warning_field(warning: str, instruction: Instruction) -> ChipField:
    """Which field a warning is about: the field holding its quoted word, else a guess."""
    lower = warning.lower()
    if "not in the cast" in lower:
        return ChipField.CHARACTER
    match = _QUOTED.search(warning)
    word = match.group(1).lower() if match else ""
    if word:
        own = _own_words(instruction)
        holding = [name for name in (ChipField.TIME, ChipField.CAMERA, ChipField.PLACE, ChipField.CHARACTER,
                                     ChipField.MOTION)
                   if own[name] and (word in own[name].lower() or own[name].lower() in word)]
        # the word in two fields (a character named like the place: "Character: River; ...
        # Background: river"): the field the warning speaks of
        spoken = _field_spoken_of(lower)
        if len(holding) > 1 and spoken in holding:
            return spoken
        if holding:
            return holding[0]
        if word in instruction.free_text.lower():
            return ChipField.MOTION
    for name, cue in ((ChipField.PLACE, "background"), (ChipField.PLACE, "location"), (ChipField.CAMERA, "camera"),
                      (ChipField.TIME, "time")):
        if cue in lower:
            return name
    return ChipField.OTHER


_FIELD_CUES = ((ChipField.CHARACTER, ("character", "cast")), (ChipField.PLACE, ("place", "background", "location")),
               (ChipField.TIME, ("time of day",)), (ChipField.CAMERA, ("camera",)), (ChipField.MOTION, ("motion",)))


def _field_spoken_of(warning: str) -> ChipField | None:
    """The field a (lower-case) warning names first by its word ("not a character the model
    knows": the character), None when it names none."""
    found = [(at, field) for field, cues in _FIELD_CUES for cue in cues if (at := warning.find(cue)) >= 0]
    return min(found)[1] if found else None


def _time_tip(word: str, drawn: str) -> str:
    """The time chip's tooltip: how the author's ``word`` is drawn, as the engine ``drawn`` it.

    The core's note (:func:`~studio.core.instruction.time_note`, which knows the English,
    Japanese and Chinese time words) is said only where it agrees with what the engine drew:
    an engine may read a word the core does not know ("tonight", drawn at night)."""
    if not word:
        return f"The engine drew the time as '{drawn}'."
    known = time_shown(word)
    note = time_note(word)
    if note and (known or drawn == "day") and (not known or known == drawn):
        return note
    return f"The engine drew the time as '{drawn}' from '{word}'."


def understanding_chips(instruction: Instruction, take: Take | None) -> list[Chip]:
    """The chips for a turn's instruction and its (selected) take; none without a take."""
    if take is None:
        return []
    cond = take.conditioning
    own = _own_words(instruction)
    chips: list[Chip] = []

    def add(field: ChipField, key: str, label: str) -> None:
        value = str(cond.get(key, "") or "")
        if not value:
            return
        word = own.get(field, "")
        tip = f"The engine read {label} as '{value}'" + (f" from '{word}'." if word else " (its own choice).")
        chips.append(Chip(field, f"{label}: {value}", word, False, tip))

    add(ChipField.CHARACTER, "character", "character")
    add(ChipField.MOTION, "motion", "motion")
    add(ChipField.PLACE, "location", "place")
    time = str(cond.get("time_of_day", "") or "")
    if time:
        word = instruction.time_of_day
        shown = f"time: {time}" + (f" ({word})" if word and word.lower() != time else "")
        chips.append(Chip(ChipField.TIME, shown, word, False, _time_tip(word, time)))
    add(ChipField.CAMERA, "camera", "camera")
    level = take.motion_level
    chips.append(Chip(ChipField.LEVEL, f"level {level} · {LEVEL_WORDS.get(level, '')}".rstrip(" ·"),
                      instruction.adverb, False,
                      "How much motion the engine put in the clip (1 calm to 5 lively); an adverb changes it."))
    for warning in take.warnings:
        field = warning_field(warning, instruction)
        match = _QUOTED.search(warning)
        chips.append(Chip(field, f"⚠ {warning}", match.group(1) if match else "", True,
                          "Click to choose a word the engine knows." if field is not ChipField.OTHER else warning))
    return chips


def suggestions(word: str, choices: Iterable[str], limit: int = 24) -> list[str]:
    """``choices`` with the closest to ``word`` first (at most ``limit``)."""
    unique = list(dict.fromkeys(c for c in choices if c))
    if not word:
        return unique[:limit]
    close = difflib.get_close_matches(word.lower(), unique, n=limit, cutoff=0.3)
    return [*close, *(c for c in unique if c not in close)][:limit]


def time_choices_note(word: str) -> str:
    """How a time word offered in a menu is drawn ("dawn (drawn as sunset)", "夕方 (drawn as
    sunset)"); the word alone where it is drawn as it is (night, 夜)."""
    shown = time_shown(word)
    return word if not shown or not time_note(word) else f"{word} (drawn as {shown})"


def shared_names(tree: StoryTree) -> list[tuple[str, str]]:
    """(character's name, location's name) of each character named like a location (case
    and spacing aside): the cast panel refuses such a pair, but a project made before it did,
    or by another program, may hold one."""
    places = {character_key(loc.name): loc.name for loc in tree.locations.values() if loc.name.split()}
    return [(m.name, places[character_key(m.name)]) for m in tree.cast.values()
            if m.name.split() and character_key(m.name) in places]


def shared_name_note(instruction: Instruction, pairs: Iterable[tuple[str, str]]) -> str:
    """A note for a turn whose text names, outside its Character and Background fields, a
    name that a character and a location share (``pairs``: :func:`shared_names`): nothing
    says which of the two it means, so the author is asked to say it ('' when none)."""
    elsewhere = [instruction.motion, instruction.adverb, instruction.camera, instruction.free_text,
                 *(value for _key, value in instruction.extra)]
    for character, place in pairs:
        pattern = name_pattern(character)
        if any(pattern.search(text) for text in elsewhere if text):
            return (f"'{character}' is the name of a character and of a location, and this turn names it outside "
                    f"its Character and Background fields: it may be read as either. Say which in a field "
                    f"(Character: {character}, or Background: {place}), or rename one of them in the Cast panel.")
    return ""
