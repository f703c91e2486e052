"""Two turns of 0.4 s (3 frames at 8 fps) around a turn whose caption needs all its time to be
read got cues of 0.375 s each, in the SRT, burned in and as OTIO markers, where the README
says a very short turn's caption never just flashes by. A caption that would be up less than
the minimum (5/6 s: 7 frames at 8 fps) now takes what it lacks from its neighbour's reading
time, leaving that one its own minimum: the first runs on into turn 2 (which starts later),
the last, at the end of the episode, starts during turn 2 (which ends earlier)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import opentimelineio as otio
import pytest

from studio.core import AddDialogueLine, SetDuration
from studio.export import CaptionMode, ExportOptions, export_branch

from .helpers import COLOURS, FPS, Fixture, close_to, decode, parse_srt

LEAST = 7 / FPS
LINES = (("Qiqi", "Hi!"), ("Yuzu", "Wait for me at the old bridge by the river, please!"), ("Qiqi", "Bye!"))
"""Turn 2's line takes about 3 s to read, more than its 2 s: it has no time to spare."""
EXPECTED = [0, 7 / FPS, 7 / FPS, 15 / FPS, 15 / FPS, 22 / FPS]  # frames 0-3, 3-19, 19-22 of the turns


@pytest.fixture
def short_long_short(story: Fixture) -> Fixture:
    for node, seconds, (speaker, line) in zip(story.nodes, (0.4, 2.0, 0.4), LINES, strict=True):
        story.project.apply(SetDuration(node, seconds))
        story.project.apply(AddDialogueLine(node, speaker, line))
    return story


def _times(entries: list[tuple[float, float, str]]) -> list[float]:
    return [t for start, end, _ in entries for t in (start, end)]


def test_srt_cues_of_the_short_turns_last_the_minimum(short_long_short: Fixture, tmp_path: Path) -> None:
    story = short_long_short
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "e.srt").path.read_text(encoding="utf-8"))
    said = [" ".join(text.split()) for _, _, text in entries]
    assert said == [f"{who}: {line}" for who, line in LINES], "every caption, in order"
    assert _times(entries) == pytest.approx(EXPECTED, abs=1e-3)
    assert all(end - start >= LEAST - 1e-3 for start, end, _ in entries), entries
    for (_, end, _), (start, _, _) in itertools.pairwise(entries):
        assert end <= start + 1e-6, "no overlap"


def test_otio_markers_follow_the_same_times(short_long_short: Fixture, tmp_path: Path) -> None:
    story = short_long_short
    timeline = otio.adapters.read_from_file(str(export_branch(story.project, story.leaf, tmp_path / "e.otio").path))
    spans = [t for m in timeline.tracks[0].markers for t in (m.marked_range.start_time.to_seconds(),
                                                              m.marked_range.end_time_exclusive().to_seconds())]
    assert spans == pytest.approx(EXPECTED, abs=1e-3)


def test_burned_captions_stay_up_the_minimum(short_long_short: Fixture, tmp_path: Path) -> None:
    story = short_long_short
    video = export_branch(story.project, story.leaf, tmp_path / "e.mp4",
                          options=ExportOptions(captions=CaptionMode.BURN, size=(320, 180)))
    frames = decode(video.path)
    assert len(frames) == 22
    text = [np.all(frame > 200, axis=2) for frame in frames]  # the letters: near white over plain colours

    def differ(a: int, b: int) -> int:
        return int(np.logical_xor(text[a], text[b]).sum())

    assert all(letters.sum() > 10 for letters in text), "a caption on every frame"
    assert close_to(frames[5][20, 160], COLOURS[1], tolerance=40), "frame 5 shows turn 2's picture"
    assert close_to(frames[17][20, 160], COLOURS[1], tolerance=40), "frame 17 shows turn 2's picture"
    # the caption changes where the SRT's cues do (frames 7 and 15), not at the cuts (3 and 19)
    changes = [index + 1 for index in range(len(text) - 1) if differ(index, index + 1) > 50]
    assert changes == [7, 15], [differ(index, index + 1) for index in range(len(text) - 1)]
