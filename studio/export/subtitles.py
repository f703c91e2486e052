"""SRT subtitles: each turn's cues (narration in italics, dialogue as ``Speaker: line``, or
the readable sentence of its action) over the stretch of the episode where the turn shows
(from the cut before it to the cut after it, see :mod:`studio.export.timeline`), shared
among its cues as :mod:`studio.export.cues` says."""

from __future__ import annotations

import textwrap
from fractions import Fraction
from pathlib import Path

from studio.export.branch import Branch
from studio.export.cues import Cue, CueKind, split_span, turn_cues
from studio.export.timeline import Timeline


def srt_timestamp(frame: int, fps: Fraction) -> str:
    millis = round(Fraction(frame) * 1000 / fps)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d},{millis:03d}"


SRT_LINE = 42
"""Characters a subtitle line holds by convention (broadcast and streaming style guides)."""


def srt_cue_text(cue: Cue) -> str:
    text = " ".join(cue.shown.split())
    text = text.replace("<", "‹").replace(">", "›")  # players read tags in SRT text
    # wrapped here, as the burned captions are: players show an SRT line as it is written
    text = "\n".join(textwrap.wrap(text, SRT_LINE, break_long_words=False, break_on_hyphens=False)) or text
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
