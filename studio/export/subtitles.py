"""SRT subtitles: each turn's cues (narration in italics, dialogue as ``Speaker: line``, or
the readable sentence of its action) over the stretch of the episode where the turn shows
(from the cut before it to the cut after it, see :mod:`studio.export.timeline`), shared
among its cues as :mod:`studio.export.cues` says."""

from __future__ import annotations

import itertools
import re
import unicodedata
from fractions import Fraction
from pathlib import Path

from studio.export.branch import Branch
from studio.export.cues import Cue, CueKind, split_span, turn_cues
from studio.export.drawing import wide_breaks
from studio.export.graphemes import is_wide
from studio.export.timeline import Timeline


def srt_timestamp(frame: int, fps: Fraction) -> str:
    millis = round(Fraction(frame) * 1000 / fps)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d},{millis:03d}"


SRT_LINE = 42
"""Columns a subtitle line holds by convention (broadcast and streaming style guides): a
Latin character takes one, a Japanese, Chinese or Korean one two."""


def display_width(text: str) -> int:
    """The columns ``text`` takes: two for East Asian wide and full-width characters, none
    for combining marks, one for the rest."""
    return sum(0 if unicodedata.combining(char) else 2 if is_wide(char) else 1 for char in text)


def _pieces(word: str) -> list[str]:
    """``word`` (no spaces) cut where a line may break inside it: next to a wide character
    (Japanese and Chinese have no spaces), but not inside a Latin word, never inside a
    character as a reader sees it (a letter and its combining marks, an emoji with its
    variation selector, skin tone or joined emoji: :mod:`studio.export.graphemes`), not
    before closing punctuation, nor after opening punctuation (basic kinsoku)."""
    cuts = [0, *wide_breaks(word), len(word)]
    return [word[start:end] for start, end in itertools.pairwise(cuts)]


def wrap_columns(text: str, width: int = SRT_LINE) -> list[str]:
    """Greedy wrap of single-spaced ``text`` into lines of at most ``width`` columns
    (:func:`display_width`), at spaces and between wide characters; a Latin word longer than
    a line keeps a line of its own, unbroken. Lines joined with their spaces (or nothing,
    where a break fell between wide characters) give ``text`` back."""
    lines: list[str] = []
    current, used = "", 0
    for word in text.split(" "):
        for at, piece in enumerate(_pieces(word)):
            gap = " " if at == 0 and current else ""
            needed = display_width(piece)
            if current and used + len(gap) + needed > width:
                lines.append(current)
                current, used, gap = "", 0, ""
            current += gap + piece
            used += len(gap) + needed
    return [*lines, current] if current else lines


LOOK_ALIKES = str.maketrans({"<": "\u2039", ">": "\u203a", "{": "\u2774", "}": "\u2775"})
"""SRT has no escapes, and players read markup in its text: ``<b>``, ``<i>`` and ``<font>``
tags, ASS override blocks (``{\\an8}`` moves a cue to the top, ``{\\i1}`` turns it italic,
libass hides any ``{...}``) and MicroDVD tags (``{y:i}``). The brackets become look-alikes
(‹ › ❴ ❵), so what was typed shows and does nothing."""

WORD_JOINER = "\u2060"
ASS_ESCAPES = re.compile(r"(?<=\\)(?=[Nnh])")
"""``\\N``, ``\\n`` and ``\\h``: line breaks and a hard space to players that render SRT
with libass; an invisible word joiner after the backslash keeps them as typed."""


def srt_cue_text(cue: Cue) -> str:
    text = " ".join(cue.shown.split())
    text = text.translate(LOOK_ALIKES)  # players read tags and override blocks in SRT text
    # wrapped here, as the burned captions are: players show an SRT line as it is written
    text = "\n".join(wrap_columns(text)) or text
    text = ASS_ESCAPES.sub(WORD_JOINER, text)  # after wrapping: the joiner takes no column
    return f"<i>{text}</i>" if cue.kind is CueKind.NARRATION else text


def srt_text(branch: Branch, timeline: Timeline) -> str:
    blocks: list[str] = []
    for span, turn in zip(timeline.turns, branch.turns, strict=True):
        for timed in split_span(turn_cues(turn), span.shown_from, span.shown_to):
            start = srt_timestamp(timed.start, timeline.fps)
            end = srt_timestamp(timed.end, timeline.fps)
            blocks.append(f"{len(blocks) + 1}\n{start} --> {end}\n{srt_cue_text(timed.cue)}\n")
    return "\n".join(blocks)


def write_srt(path: Path, branch: Branch, timeline: Timeline) -> None:
    path.write_text(srt_text(branch, timeline), encoding="utf-8")
