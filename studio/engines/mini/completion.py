"""The instruction the mini LM reads: the turn's own text, completed from the branch.

The LM learnt from instructions that name their character, place and time of day (its
templates name all of them), and it reads only the text of the last two turns. A turn
that says only "Motion: jump." would leave it to guess, and it guesses another character
or place. So a field the turn leaves out is added after its own text from the branch, by
the rule the studio's other engines follow (:mod:`studio.engines.continuity`): the turn's
own fields stay authoritative, and a place or time said in its free text counts as said.

The LM learnt English words only. A turn written in Japanese, Chinese or Korean is read in the
English words the sketch engine reads it in (:func:`english_turn`): "キャラクター：美咲；動作：走る；背景：夜の港"
as "Character: 美咲; Motion: run; Background: night harbour", "캐릭터: 민수; 동작: 달린다" as
"Character: 민수; Motion: run". A turn with none of those scripts in it is read exactly as it is written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from studio.core.instruction import Instruction, InstructionError, parse_instruction
from studio.core.tree import motion_subject
from studio.engines.continuity import Setting
from studio.engines.sketch.japanese import has_japanese
from studio.engines.sketch.korean import has_hangul
from studio.engines.sketch.understanding import Reading, read_location, read_time, read_turn, turn_in_english


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
    # "Motion: Yuzu reads a book": the clause's subject acts, and is written as a Character field (the LM
    # learnt who acts from that field or the free text, never from the motion)
    subject = "" if character else motion_subject(instruction.motion, list(cast))
    character = character or subject
    own = Setting(character, " ".join(instruction.background.split()), " ".join(instruction.time_of_day.split()))
    found = Reading()
    read_location(instruction, found, ())  # a place said in the free text or the motion counts as said
    read_time(instruction, found)
    said_place, said_time = bool(own.location or found.location), bool(own.time_of_day or found.time)
    filled = Setting(
        character=earlier.character if not own.character else "",
        location=earlier.location if not said_place else "",
        time_of_day=earlier.time_of_day if not said_time else "")
    raw = lm_text(instruction)
    base = raw.rstrip().rstrip(".。").rstrip()
    parts = []
    if filled.character or subject:
        parts.append(f"Character: {filled.character or subject}")
    if filled.location:
        parts.append(f"Background: {' '.join(w for w in (filled.time_of_day, filled.location) if w)}")
    elif filled.time_of_day:
        parts.append(f"Time: {filled.time_of_day}")
    text = f"{base}; {'; '.join(parts)}." if parts and base else raw
    return Completion(text=text, own=own, filled=filled, base_length=len(base) if parts else len(raw))


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


_JAPANESE_RUN = re.compile("[\u3040-\u309f\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff\u3005\u3006"
                           "\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]+")
"""Kana and kanji (as :func:`studio.engines.sketch.japanese.has_japanese` counts them), and Hangul
syllables and letters (as :func:`studio.engines.sketch.korean.has_hangul` counts them)."""
_JAPANESE_MARKS = str.maketrans({"\u3001": ", ", "\u3002": ". ", "\u30fb": " ", "\u300c": " ", "\u300d": " ",
                                 "\u300e": " ", "\u300f": " ", "\u3000": " "})
"""Japanese punctuation as the English the LM learnt writes it (、 a comma, 。 a full stop)."""


def english_turn(instruction: Instruction, names: Iterable[str] = ()) -> Instruction:
    """``instruction`` as the LM reads it: itself when its text has no Japanese, Chinese or Korean
    in it; else the turn in the English words the sketch engine reads it in
    (:func:`~studio.engines.sketch.understanding.turn_in_english`: Japanese, Chinese or Korean),
    written as fields the LM learnt ("Character: 美咲; Motion: run; Background: night harbour",
    its free text first) and parsed again, so that it is read as that English turn would be.

    ``names`` (the cast's, the project's places') are kept as written, and so is the Character
    field; what is left in Japanese or Korean besides (particles, words the sketch world has no
    English for) is left out: the LM never learnt such a word, and would read each as unknown. A
    turn with nothing left in English is returned as it is, and so is one whose only Japanese or
    Korean is in names: its character's, or ``names``."""
    if not _translated(instruction.raw):
        return instruction
    kept = tuple(name for name in (" ".join(n.split()) for n in names) if name)
    if not _translated(_without(instruction.raw, (*kept, instruction.character.strip()))):
        return instruction
    english = turn_in_english(instruction, kept)
    text = _as_fields(instruction, english, kept)
    if text is None:
        return instruction
    try:
        read = parse_instruction(text)
    except InstructionError:  # read as fields all the same (an English text longer than a turn may be)
        read = replace(english, raw=text)
    lm_text = _as_fields(instruction, _not_done(english), kept)
    if lm_text is None or lm_text == text:
        return read
    return EnglishTurn(read.raw, read.character, read.motion, read.adverb, read.background, read.time_of_day,
                       read.camera, read.free_text, read.extra, lm_text=lm_text)


@dataclass(frozen=True, slots=True)
class EnglishTurn(Instruction):
    """A turn put into English words (:func:`english_turn`) that says a motion is not done: its
    fields as the sketch engine reads them ("민수 not run."), and :attr:`lm_text`, what the LM
    reads ("민수 idle."): it learnt no "not run", and would read the verb alone."""

    lm_text: str = ""


def lm_text(instruction: Instruction) -> str:
    """The text the LM reads of ``instruction``: its raw text, or an :class:`EnglishTurn`'s
    :attr:`~EnglishTurn.lm_text`."""
    return instruction.lm_text if isinstance(instruction, EnglishTurn) and instruction.lm_text else instruction.raw


def _as_fields(instruction: Instruction, english: Instruction, kept: Sequence[str]) -> str | None:
    """``english`` (``instruction`` in English words) written as the fields the LM learnt, its
    free text first; None when nothing is left in English but names."""
    place, time = _readable(english.background, kept), _readable(english.time_of_day, kept)
    fields = (("Character", " ".join(instruction.character.split())),
              ("Motion", _readable(f"{english.adverb} {english.motion}", kept)),
              ("Background", f"{time} {place}" if place and time else place),  # as the model learnt them
              ("Time", "" if place else time),
              ("Camera", _readable(english.camera, kept)),
              *((_readable(key, kept), _readable(value, kept)) for key, value in english.extra))
    parts = [f"{key}: {value}" for key, value in fields if key and value]
    free = _readable(english.free_text, kept)
    if free:
        parts.insert(0, free)
    if not any(_english_word(part) for part in (free, *(value for key, value in fields if key != "Character"))):
        return None
    return "; ".join(part.rstrip(".;, ") for part in parts) + "."


_NOT_DONE = re.compile(r"(?<![\w'])not\s+[^,.;]*(?:,|$)")
"""A motion the sketch engine's readers read as not done: "not run," ("달리지 않는다", "走らない",
"不跑"), to the comma that ends the negation."""


def _not_done(english: Instruction) -> Instruction:
    """``english`` (a turn put into English words) with each motion said not to be done as what
    the sketch engine shows for it, "idle": the LM learnt no "not run", and reads the verb alone.
    A motion done besides stays ("not run, walk" -> "idle, walk": the walk)."""
    motion, free_text = _NOT_DONE.sub("idle,", english.motion), _NOT_DONE.sub("idle,", english.free_text)
    if (motion, free_text) == (english.motion, english.free_text):
        return english
    return replace(english, motion=motion, free_text=free_text)


def not_done_warnings(instruction: Instruction, names: Iterable[str] = ()) -> list[str]:
    """The sketch engine's warnings for the motions ``instruction`` says are not done, quoting them
    as written ("'달리지 않는다' is a motion not done, shown as 'idle'"): what :func:`english_turn`
    reads as "idle" is said as the sketch engine says it. None for a turn :func:`english_turn`
    keeps as written (an English one)."""
    kept = tuple(name for name in (" ".join(n.split()) for n in names) if name)
    if english_turn(instruction, kept) is instruction:
        return []
    return [warning for warning in read_turn(instruction, (), kept).warnings if " is a motion not done, " in warning]


def _translated(text: str) -> bool:
    """Whether ``text`` holds words the LM never learnt and the sketch engine reads in English:
    Japanese or Chinese (kana, Han characters) or Korean (Hangul)."""
    return has_japanese(text) or has_hangul(text)


def _without(text: str, names: Iterable[str]) -> str:
    """``text`` with every one of ``names`` taken out (the longest first)."""
    for name in sorted((n for n in names if n), key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def _readable(text: str, names: Sequence[str]) -> str:
    """``text`` (in English words, with Japanese left in it) without its Japanese but ``names``,
    its Japanese punctuation as English's, its spaces collapsed."""
    text = unicodedata.normalize("NFKC", text.translate(_JAPANESE_MARKS))
    text = _JAPANESE_RUN.sub(lambda run: f" {run.group(0)} " if run.group(0) in names else " ", text)
    text = re.sub(r"\s+([,.;!?])", r"\1", " ".join(text.split()))
    text = re.sub(r"([,.;])(?:\s*[,.;])+", r"\1", text)
    return text.strip(" ,.;")


def _english_word(text: str) -> bool:
    """Whether ``text`` says anything in letters the LM reads (more than kept names and marks)."""
    return bool(re.search(r"[A-Za-z]", text))
