"""A very short turn (a duration of 0.25 or 0.5 s) made its caption flash by, in the SRT and
burned into the video alike. Now a caption stays up at least 5/6 s where it can borrow the
time: from a turn without a caption after it, from the next caption's spare time (that one
starts later), or at the end of the episode from the caption before it; a run of very short
turns shares one caption. No caption overlaps another, none loses text where there is time to
show it, and a caption whose turn is long enough for its text is not cut short for another."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import opentimelineio as otio
import pytest

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import CaptionMode, ExportOptions, export_branch
from studio.storage import Project

from .helpers import COLOURS, FPS, Fixture, add_turn, close_to, decode, parse_srt

LEAST = 7 / FPS  # 5/6 s in whole frames at 8 fps: 0.875 s
SENTENCE = "Qiqi gently waves {} in the town, by day."
NARRATION = ("The lanterns along the canal flicker on, one after another, in the dusk. "
             "A cat watches the boats from the warm stones of the old bridge tonight. "
             "Somewhere a bell rings twice, and the bakery finally closes its doors.")


def _assert_in_order(entries: list[tuple[float, float, str]]) -> None:
    for (start, end, _), (after, _, _) in itertools.pairwise(entries):
        assert start < end <= after + 1e-6, entries


def _times(entries: list[tuple[float, float, str]]) -> list[float]:
    return [t for start, end, _ in entries for t in (start, end)]


def _mixed(story: Fixture, *seconds: float) -> None:
    for node, duration in zip(story.nodes, seconds, strict=True):
        story.project.apply(SetDuration(node, duration))


def test_a_short_turn_borrows_from_the_long_turn_after_it(story: Fixture, tmp_path: Path) -> None:
    _mixed(story, 0.5, 4.0, 0.5)
    result = export_branch(story.project, story.leaf, tmp_path / "mixed.srt")
    entries = parse_srt(result.path.read_text(encoding="utf-8"))
    assert [text for _, _, text in entries] == [SENTENCE.format(n) for n in (1, 2, 3)], "every caption, once"
    _assert_in_order(entries)
    assert all(end - start >= LEAST - 1e-3 for start, end, _ in entries), entries
    first, middle, last = entries
    # runs on into turn 2's spare time (beyond what turn 2 needs to read), towards its own reading time
    assert first[0] == 0 and first[1] == pytest.approx(middle[0], abs=1e-3) and first[1] > 1.5, "runs on into turn 2"
    # the last turn has nothing after it: it starts a little before its turn, taking turn 2's time
    assert last[1] == pytest.approx(5.0, abs=1e-3) and last[0] == pytest.approx(5.0 - LEAST, abs=1e-3)
    # turn 2 keeps about what it takes to read its own 40 characters (at most a fifth faster)
    assert middle[1] - middle[0] >= len(middle[2]) / 17 / 1.2


def test_each_line_of_a_short_turn_gets_the_minimum(story: Fixture, tmp_path: Path) -> None:
    _mixed(story, 0.5, 6.0, 0.75)
    for speaker, line in (("Qiqi", "Hi!"), ("Yuzu", "Hello."), ("Qiqi", "Bye!")):
        story.project.apply(AddDialogueLine(story.nodes[0], speaker, line))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "lines.srt").path.read_text())
    assert [text for _, _, text in entries[:3]] == ["Qiqi: Hi!", "Yuzu: Hello.", "Qiqi: Bye!"]
    _assert_in_order(entries)
    assert all(end - start >= LEAST - 1e-3 for start, end, _ in entries[:3]), entries
    assert entries[3][0] == pytest.approx(3 * LEAST, abs=1e-3), "turn 2's caption starts once they are read"


def test_each_subtitle_of_a_long_narration_in_a_short_turn_gets_the_minimum(story: Fixture, tmp_path: Path) -> None:
    _mixed(story, 1.0, 12.0, 0.75)
    story.project.apply(SetNarration(story.nodes[0], NARRATION))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "told.srt").path.read_text())
    told = [entry for entry in entries if entry[2].startswith("<i>")]
    assert len(told) == 3, "one subtitle a sentence"
    _assert_in_order(entries)
    assert all(end - start >= LEAST - 1e-3 for start, end, _ in told), told
    assert " ".join(text.removeprefix("<i>").removesuffix("</i>") for _, _, text in told).split() == NARRATION.split()


def test_a_short_caption_takes_its_minimum_even_from_a_caption_that_needs_its_whole_turn(
        story: Fixture, tmp_path: Path) -> None:
    _mixed(story, 0.5, 1.5, 1.5)  # 1.5 s is less than turn 2's caption takes to read
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "tight.srt").path.read_text())
    # the minimum (5/6 s, rounded to the frame: 0.875 s) wins over the neighbour's reading time,
    # which keeps the rest of its turn
    assert _times(entries) == pytest.approx([0, 0.875, 0.875, 2.0, 2.0, 3.5], abs=1e-3)


def test_a_run_of_very_short_turns_shares_one_readable_caption(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "quick", name="Quick")
    parent = project.tree.root_id
    for index in range(4):  # 2 frames each: a quarter of a second
        parent = add_turn(project, parent, f"Character: Qiqi; Motion: wave {index + 1} gently; Background: day town.",
                          COLOURS[index], frames=2)
    try:
        entries = parse_srt(export_branch(project, parent, tmp_path / "quick.srt").path.read_text(encoding="utf-8"))
        timeline = otio.adapters.read_from_file(str(export_branch(project, parent, tmp_path / "quick.otio").path))
    finally:
        project.close()
    markers = timeline.tracks[0].markers
    # the four turns share the caption, still the actions' sentences (not dialogue) ...
    assert all(list(m.metadata["kamishibai"]["turns"]) == [1, 2, 3, 4] for m in markers), markers
    assert all(m.metadata["kamishibai"]["kind"] == "action" and m.color == "BLUE" for m in markers)
    # ... as subtitles of at most two lines each; the episode lasts 1 s, nothing to borrow:
    # four sentences take four lines, two subtitles of half a second would only flash by, so
    # one subtitle shows the start of each, in order, for the whole second
    assert len(entries) == 1, entries
    assert all(len(text.splitlines()) <= 2 for _, _, text in entries), entries
    parts = [part for line in entries[0][2].splitlines() for part in line.split(" / ")]  # a line ends a part
    assert len(parts) == 4 and all(part.endswith("\u2026") for part in parts), parts
    assert all(SENTENCE.format(n).startswith(part.removesuffix("\u2026")) for n, part in enumerate(parts, 1)), parts
    _assert_in_order(entries)
    assert _times(entries) == pytest.approx([0, 1.0], abs=1e-3)
    spans = [t for m in markers for t in (m.marked_range.start_time.to_seconds(),
                                          m.marked_range.end_time_exclusive().to_seconds())]
    assert spans == pytest.approx(_times(entries), abs=1e-3), "a marker a subtitle"


@pytest.fixture
def silent_first(tmp_path: Path) -> Iterator[tuple[Project, str]]:
    """A first turn with nothing to say (blank fields, no character yet: no caption), then a
    turn of a quarter of a second, the last."""
    project = Project.create(tmp_path / "silent", name="Silent")
    first = add_turn(project, project.tree.root_id, "Character: ; Motion: ; Background: .", COLOURS[0], frames=16)
    second = add_turn(project, first, "Character: Qiqi; Motion: wave; Background: day town.", COLOURS[1], frames=2)
    yield project, second
    project.close()


def test_a_turn_without_a_caption_lends_its_time(silent_first: tuple[Project, str], tmp_path: Path) -> None:
    project, leaf = silent_first
    entries = parse_srt(export_branch(project, leaf, tmp_path / "silent.srt").path.read_text(encoding="utf-8"))
    # the episode ends with it: it starts early, over the silent turn's last frames, as long as
    # its 31 characters take to read (17 a second, in whole frames: 15)
    assert _times(entries) == pytest.approx([18 / FPS - 15 / FPS, 18 / FPS], abs=1e-3)
    assert entries[0][2] == "Qiqi waves in the town, by day."


def _caption_text(frame: np.ndarray) -> np.ndarray:
    """The caption's letters (near-white pixels; the clips are strong plain colours)."""
    return np.all(frame > 200, axis=2)


def test_the_burned_caption_stays_as_long_as_its_subtitle(story: Fixture, tmp_path: Path) -> None:
    _mixed(story, 0.5, 4.0, 0.5)
    story.project.apply(AddDialogueLine(story.nodes[1], "Yuzu", "Wait for me at the bridge, please!"))
    options = ExportOptions(captions=CaptionMode.BURN, size=(320, 180))
    video = export_branch(story.project, story.leaf, tmp_path / "burned.mp4", options=options)
    frames = decode(video.path)
    assert len(frames) == 40
    first, carried, own = (_caption_text(frames[index]) for index in (1, 5, 24))
    assert first.sum() > 100 and own.sum() > 100, "captions drawn"
    assert close_to(frames[5][20, 160], COLOURS[1], tolerance=40), "frame 5 shows turn 2's picture"

    def differ(a: np.ndarray, b: np.ndarray) -> int:
        return int(np.logical_xor(a, b).sum())

    # frame 5 still shows turn 1's caption (the same words over another picture), as the SRT has it
    assert differ(first, carried) * 4 < differ(carried, own), (differ(first, carried), differ(carried, own))
    srt = export_branch(story.project, story.leaf, tmp_path / "burned.srt").path
    # turn 1's caption runs on into turn 2's spare time: turn 2's starts at frame 17
    assert parse_srt(srt.read_text(encoding="utf-8"))[1][0] == pytest.approx(17 / FPS, abs=1e-3)


def test_otio_markers_follow_the_same_times(story: Fixture, tmp_path: Path) -> None:
    _mixed(story, 0.5, 4.0, 0.5)
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "m.srt").path.read_text())
    track = otio.adapters.read_from_file(str(export_branch(story.project, story.leaf, tmp_path / "m.otio").path))
    markers = track.tracks[0].markers
    spans = [t for m in markers for t in (m.marked_range.start_time.to_seconds(),
                                          m.marked_range.end_time_exclusive().to_seconds())]
    assert spans == pytest.approx(_times(entries), abs=1e-3)


def test_a_short_caption_runs_on_over_a_silent_turn_after_it() -> None:
    from fractions import Fraction

    from studio.export.caption_timing import caption_blocks
    from studio.export.cues import Cue, CueKind
    from studio.export.timeline import plan_timeline

    fps = Fraction(24)
    timeline = plan_timeline([12, 48, 6, 48], fps)  # 0.5 s, 2 s (nothing to say), 0.25 s, 2 s
    said = [Cue(CueKind.DIALOGUE, "Hi!", "Qiqi")]
    blocks = caption_blocks([said, [], said, said], timeline.turns, fps)
    # 20 frames (5/6 s) from the silent turn; the third keeps its start and takes the fourth's spare time
    assert [(b.turns, b.start, b.end) for b in blocks] == [((0,), 0, 20), ((2,), 60, 80), ((3,), 80, 114)]
