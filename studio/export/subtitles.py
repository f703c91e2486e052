"""SRT subtitles: each turn's instruction over the stretch of the episode where it shows
(from the cut before it to the cut after it, see :mod:`studio.export.timeline`)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from studio.export.branch import Branch
from studio.export.timeline import Timeline


def srt_timestamp(frame: int, fps: Fraction) -> str:
    millis = round(Fraction(frame) * 1000 / fps)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d},{millis:03d}"


def srt_text(branch: Branch, timeline: Timeline) -> str:
    blocks: list[str] = []
    for span, turn in zip(timeline.turns, branch.turns, strict=True):
        text = "\n".join(line.strip() for line in turn.instruction.splitlines() if line.strip())
        if not text:
            continue
        start = srt_timestamp(span.shown_from, timeline.fps)
        end = srt_timestamp(span.shown_to, timeline.fps)
        blocks.append(f"{len(blocks) + 1}\n{start} --> {end}\n{text}\n")
    return "\n".join(blocks)


def write_srt(path: Path, branch: Branch, timeline: Timeline) -> None:
    path.write_text(srt_text(branch, timeline), encoding="utf-8")
