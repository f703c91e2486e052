"""A long caption in a short turn stayed up only its turn's time (61 characters in 1.125 s)
while the next turn's caption had seconds to spare. Now a caption runs into the next
caption's spare time (that one starts later, keeping what it needs to read its own text), and
the episode's last caption starts earlier instead; captions never overlap nor run past the
video's end, and the OTIO markers keep the SRT's times."""

from __future__ import annotations

import itertools
from pathlib import Path

import opentimelineio as otio
import pytest

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import export_branch

from .helpers import Fixture, parse_srt

RATE = 17  # characters a second: studio.export.reading's English reading speed
LONG = "Qiqi has one morning to prove she can run a delivery service."  # 61 characters
SHORT = "Where is the clock tower?"


def _rate(entry: tuple[float, float, str]) -> float:
    start, end, text = entry
    return len(text.replace("<i>", "").replace("</i>", "").replace("\n", " ")) / (end - start)


def test_a_long_caption_borrows_the_next_turns_spare_time(story: Fixture, tmp_path: Path) -> None:
    for node, seconds in zip(story.nodes, (1.0, 8.0, 1.0), strict=True):
        story.project.apply(SetDuration(node, seconds))
    story.project.apply(SetNarration(story.nodes[0], LONG))
    story.project.apply(AddDialogueLine(story.nodes[1], "Qiqi", SHORT))
    story.project.apply(AddDialogueLine(story.nodes[2], "Yuzu", LONG))
    result = export_branch(story.project, story.leaf, tmp_path / "ep.srt")
    entries = parse_srt(result.path.read_text(encoding="utf-8"))
    assert len(entries) == 3, entries
    for (_, end, _), (after, _, _) in itertools.pairwise(entries):
        assert end <= after + 1e-6, entries
    first, middle, last = entries
    assert first[0] == 0
    assert _rate(first) <= RATE + 1, f"turn 1's 61 characters read at {_rate(first):.1f} a second"
    assert middle[0] >= 1.0 - 1e-6, "turn 2's caption never starts before its turn"
    assert _rate(middle) <= RATE + 1, "turn 2 keeps the time to read its own line"
    # the last caption starts earlier, into turn 2's spare time, and ends with the video
    assert last[1] == pytest.approx(10.0, abs=1e-3)
    assert last[0] < 9.0 - 1e-6 and _rate(last) <= RATE + 1, entries
    markers = otio.adapters.read_from_file(
        str(export_branch(story.project, story.leaf, tmp_path / "ep.otio").path)).tracks[0].markers
    times = [t for m in markers
             for t in (m.marked_range.start_time.to_seconds(), m.marked_range.end_time_exclusive().to_seconds())]
    assert times == pytest.approx([t for start, end, _ in entries for t in (start, end)], abs=1e-3)
