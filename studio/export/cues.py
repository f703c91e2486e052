"""What a turn says on screen: its cues (narration, then each dialogue line), or, when it
has neither, one cue with the readable sentence of its action.

A turn's caption stretch (from the cut before it to the cut after it, lengthened where it
is too short to read: :mod:`studio.export.caption_timing`) is shared among its
cues in proportion to the time they take to read (their length, four times that in
Japanese: :mod:`studio.export.reading`), so a long line stays up longer; every cue gets at
least a little time (:func:`split_span`). The SRT cuts a long cue into cues of two lines
(:mod:`studio.export.subtitles`) and shares the turn's stretch among all of them the same
way, by length, with a longer floor (:func:`share_frames`); burned-in captions and OTIO
markers show those same subtitles (:class:`studio.export.subtitles.ShownCaptions`), so all
three show the same text and change at the same frames.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from studio.export.bidi_text import LRM, RLM, starts_right_to_left
from studio.export.branch import Turn
from studio.export.reading import reading_weight
from studio.export.spaces import single_spaced

MIN_CUE_WEIGHT = 12
"""Characters a cue counts as at least: a short "Hi!" still gets time to be read. A cue
counts as the Latin characters read in the time its text takes
(:func:`studio.export.reading.reading_weight`), so a Japanese line, read at about a quarter
of the characters a second, gets its share of the turn beside an English one."""


class CueKind(StrEnum):
    NARRATION = "narration"
    DIALOGUE = "dialogue"
    ACTION = "action"


@dataclass(frozen=True)
class Cue:
    kind: CueKind
    text: str
    speaker: str = ""
    paragraph_rtl: bool | None = None
    """The direction of the cue a piece was cut from (:func:`studio.export.subtitles.srt_pieces`),
    which a piece keeps: the first piece of "Yuzu: مرحبا ..." starts with the name, and has lost
    the speaker that said its direction is its line's. None: the cue's own (:attr:`rtl`)."""

    @property
    def shown(self) -> str:
        """The text as a subtitle shows it: ``Qiqi: Hello!``; narration and action as they are."""
        return f"{self.speaker}: {self.text}" if self.speaker else self.text

    @property
    def rtl(self) -> bool | None:
        """The direction the shown text is read in where it is not its first strong letter's
        (None): a line of dialogue's own, as the speaker's name before it does not set it
        ("Yuzu: مرحبا يا Qiqi" reads right to left, the name at the right)."""
        if self.paragraph_rtl is not None:
            return self.paragraph_rtl
        return starts_right_to_left(self.text) if self.speaker else None

    @property
    def reads_rtl(self) -> bool:
        """Whether the shown text reads right to left: :attr:`rtl`, else by its first strong letter."""
        rtl = self.rtl
        return starts_right_to_left(self.shown) if rtl is None else rtl


@dataclass(frozen=True)
class TimedCue:
    cue: Cue
    start: int
    """First output frame (inclusive)."""
    end: int
    """Last output frame (exclusive)."""


def turn_cues(turn: Turn) -> list[Cue]:
    """The turn's narration and dialogue lines, else its action's sentence; none when it has
    nothing to say (an instruction of blank fields and no character: its sentence is empty,
    and the instruction as written, "Character: ; Motion: ; Background: .", is no caption)."""
    cues: list[Cue] = []
    if turn.story.narration:
        cues.append(Cue(CueKind.NARRATION, single_spaced(turn.story.narration)))
    cues.extend(Cue(CueKind.DIALOGUE, line.text, line.speaker) for line in turn.story.dialogue if line.text)
    if not cues and turn.action:  # never the instruction as written: its field syntax is no caption
        cues.append(Cue(CueKind.ACTION, turn.action))
    return cues


def split_span(cues: list[Cue], start: int, end: int) -> list[TimedCue]:
    """Share frames ``start..end`` among ``cues`` by length; every cue gets at least one frame.
    With more cues than frames, neighbouring cues share one (:func:`merged`), so no line is lost."""
    frames = end - start
    if not cues or frames <= 0:
        return []
    if len(cues) > frames:
        cues = [merged(cues[len(cues) * k // frames:len(cues) * (k + 1) // frames]) for k in range(frames)]
    weights = [max(MIN_CUE_WEIGHT, reading_weight(cue.shown)) for cue in cues]
    total = sum(weights)
    timed: list[TimedCue] = []
    at = start
    used = 0
    for index, (cue, weight) in enumerate(zip(cues, weights, strict=True)):
        used += weight
        stop = end if index == len(cues) - 1 else start + round(frames * used / total)
        stop = max(stop, at + 1)
        stop = min(stop, end - (len(cues) - 1 - index))
        timed.append(TimedCue(cue, at, stop))
        at = stop
    return timed


MERGED_SEPARATOR = " / "

PART_MARKS = {LRM: False, RLM: True}
"""The mark that opens a part of a joined subtitle read in another direction than the part
before it, by the direction it gives (right to left: True)."""
_PART_START = re.compile(f"(?<={re.escape(MERGED_SEPARATOR)})[{LRM}{RLM}]")


def part_starts(text: str) -> list[tuple[int, bool]]:
    """Where each part of a joined subtitle's ``text`` that changes direction starts (at its
    mark: :func:`joined_text`), with its direction (right to left: True)."""
    return [(match.start(), PART_MARKS[match.group()]) for match in _PART_START.finditer(text)]


def direction_at(text: str, at: int, rtl: bool) -> bool:
    """The direction of the part of joined ``text`` that offset ``at`` lies in: the last part
    mark at or before it, else ``rtl`` (the first part's)."""
    for start, part_rtl in part_starts(text):
        if start > at:
            break
        rtl = part_rtl
    return rtl


def joined_text(before: str, before_rtl: bool, text: str, rtl: bool) -> str:
    """Subtitle text ``before`` (whose first part reads right to left when ``before_rtl``) and
    ``text`` (read right to left when ``rtl``) as one subtitle, apart by
    :data:`MERGED_SEPARATOR`. Where ``text`` reads in another direction than the end of
    ``before`` (an Arabic line after an English one), it opens with that direction's mark
    (RLM or LRM): the subtitle's lines then each keep their part's direction
    (:func:`studio.export.subtitles.subtitle_lines`), where the joined text took the first
    line's for all, and "Yuzu: مرحبا" after "Qiqi: Hi!" read left to right, its name at the
    left."""
    changes = direction_at(before, len(before), before_rtl) != rtl
    return f"{before}{MERGED_SEPARATOR}{(RLM if rtl else LRM) if changes else ''}{text}"


def merged(cues: list[Cue]) -> Cue:
    """One cue showing ``cues`` in order (``Qiqi: Hi! / Yuzu: Hello.``): of their kind when
    they are all of one (the sentences of several short turns' actions stay actions), else
    dialogue (the speakers stay in the text). It reads in its first cue's direction, each
    part of another direction opening with its mark (:func:`joined_text`)."""
    if len(cues) == 1:
        return cues[0]
    kinds = {c.kind for c in cues}
    kind = kinds.pop() if len(kinds) == 1 else CueKind.DIALOGUE
    text = cues[0].shown
    for cue in cues[1:]:
        text = joined_text(text, cues[0].reads_rtl, cue.shown, cue.reads_rtl)
    rtl = cues[0].reads_rtl  # kept where the joined text's first letter says otherwise ("Yuzu: مرحبا")
    return Cue(kind, text, paragraph_rtl=None if starts_right_to_left(text) == rtl else rtl)


def share_frames(weights: list[int], start: int, end: int, minimum: int = 1) -> list[tuple[int, int]]:
    """Frames ``start..end`` shared among consecutive pieces in proportion to ``weights`` (each
    at least 1), as ``(first, stop)`` pairs (``stop`` exclusive) that meet, end at ``end`` and
    are each at least a frame long, so they strictly increase. Needs a frame a piece.

    Each piece gets at least ``minimum`` frames where the span holds that many for every
    piece; where it does not, at least its share of half the span (so the other half still
    follows the lengths, and a longer piece still stays up longer). Pieces below the floor
    get the floor and the rest is shared among the others by weight again (water-filling).
    The boundaries round the exact cumulative shares half up, which keeps every piece at its
    whole-frame floor."""
    frames, count = end - start, len(weights)
    if count == 0 or frames < count:
        raise ValueError(f"{count} pieces need at least as many frames, not {frames}")
    floor = minimum if minimum * count <= frames else max(1, frames // (2 * count))
    fixed: set[int] = set()
    while True:
        free = [index for index in range(count) if index not in fixed]
        rest = frames - floor * len(fixed)
        total = sum(weights[index] for index in free)
        low = {index for index in free if rest * weights[index] < floor * total}
        if not low or len(low) == len(free):  # the second cannot happen while floor * count <= frames
            break
        fixed |= low
    shares = [Fraction(floor) if index in fixed else Fraction(rest * weights[index], total)
              for index in range(count)]
    pairs: list[tuple[int, int]] = []
    at, used = start, Fraction(0)
    for index, share in enumerate(shares):
        used += share
        stop = end if index == count - 1 else start + math.floor(used + Fraction(1, 2))
        pairs.append((at, stop))
        at = stop
    return pairs
