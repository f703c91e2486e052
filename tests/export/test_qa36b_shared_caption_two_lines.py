"""Consecutive turns of half a second or less share one caption; when they carry long lines,
that caption was one SRT cue of six or seven lines (and one marker, one burned caption of all
of them), though a subtitle holds two lines at most. Now the shared text shows as
consecutive subtitles of at most two lines each, in the SRT, as OTIO markers and burned in
alike, each up at least 5/6 s where the episode has the time (the run borrows it as a
single turn does), and, where it has not, each turn's line shows at least its start, several
lines sharing a subtitle rather than any subtitle showing for less than 5/6 s."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import opentimelineio as otio
import pytest

from studio.core import AddDialogueLine
from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.subtitles import wrap_columns
from studio.storage import Project

from .helpers import COLOURS, FPS, add_turn, decode, parse_srt

LEAST = 7 / FPS  # 5/6 s in whole frames at 8 fps
LINES = [
    ("Qiqi", "The lanterns along the canal flicker on, one after another."),
    ("Yuzu", "A cat watches the boats from the warm stones of the bridge."),
    ("Qiqi", "Somewhere a bell rings twice, and the bakery closes its doors."),
    ("Yuzu", "We should hurry home before the last tram leaves the square!"),
]
SITS = "Qiqi sits in the town, by day."
SHARED = " / ".join(f"{speaker}: {text}" for speaker, text in LINES)


def _project(root: Path, lines: list[tuple[str, str]], last_frames: int) -> tuple[Project, str]:
    """Four turns of two frames (a quarter of a second) each saying one of ``lines``, then,
    with ``last_frames``, a turn with a short caption, whose spare time a caption may use."""
    project = Project.create(root, name="Quick")
    parent = project.tree.root_id
    for index, (speaker, text) in enumerate(lines):
        parent = add_turn(project, parent, "Character: Qiqi; Motion: wave; Background: day town.",
                          COLOURS[index], frames=2)
        project.apply(AddDialogueLine(parent, speaker, text))
    if last_frames:
        parent = add_turn(project, parent, "Character: Qiqi; Motion: sit; Background: day town.", COLOURS[4],
                          frames=last_frames)
    return project, parent


def _words(texts: list[str]) -> list[str]:
    """The words of ``texts``, without the slashes between turns."""
    return [word for word in " ".join(texts).split() if word != "/"]


def _spans(timeline: otio.schema.Timeline) -> list[tuple[float, float, str]]:
    return [(m.marked_range.start_time.to_seconds(), m.marked_range.end_time_exclusive().to_seconds(), m.name)
            for m in timeline.tracks[0].markers]


def _assert_in_order(entries: list[tuple[float, float, str]]) -> None:
    for (start, end, _), (after, _, _) in itertools.pairwise(entries):
        assert start < end <= after + 1e-6, entries


def test_long_lines_of_short_turns_take_two_line_subtitles_each_up_long_enough(tmp_path: Path) -> None:
    project, leaf = _project(tmp_path / "quick", LINES, last_frames=48)
    try:
        entries = parse_srt(export_branch(project, leaf, tmp_path / "quick.srt").path.read_text(encoding="utf-8"))
        timeline = otio.adapters.read_from_file(str(export_branch(project, leaf, tmp_path / "quick.otio").path))
    finally:
        project.close()
    *shared, last = entries
    assert last[2] == SITS and last[1] == pytest.approx(7.0, abs=1e-3), entries
    assert len(shared) >= 3, entries
    assert all(len(text.splitlines()) <= 2 for _, _, text in entries), entries
    # every line, whole and in order; where a subtitle changes with the turn, no "/" leads it
    assert _words([text for _, _, text in shared]) == _words([SHARED]), shared
    assert not any(text.startswith("/") or text.endswith("/") for _, _, text in shared), shared
    _assert_in_order(entries)
    # the last turn lends its spare time: every subtitle stays up 5/6 s
    assert all(end - start >= LEAST - 1e-3 for start, end, _ in shared), entries
    assert shared[0][0] == 0
    # the last caption keeps the time its own text takes to read
    assert last[1] - last[0] >= len(SITS) / 17
    markers = _spans(timeline)
    assert [t for start, end, _ in markers for t in (start, end)] == pytest.approx(
        [t for start, end, _ in entries for t in (start, end)], abs=1e-3), "a marker for each subtitle, at its times"
    assert all(len(wrap_columns(name, break_long_words=True)) <= 2 for _, _, name in markers), markers
    assert all(list(m.metadata["kamishibai"]["turns"]) == [1, 2, 3, 4] for m in timeline.tracks[0].markers[:-1])


def test_without_time_to_borrow_each_turn_keeps_its_start_in_two_line_subtitles(tmp_path: Path) -> None:
    longer = [(speaker, f"{text} {text} {text}") for speaker, text in LINES]  # about 190 characters each
    project, leaf = _project(tmp_path / "tight", longer, last_frames=0)  # the episode lasts 1 s
    try:
        entries = parse_srt(export_branch(project, leaf, tmp_path / "tight.srt").path.read_text(encoding="utf-8"))
        result = export_branch(project, leaf, tmp_path / "tight.mp4",
                               options=ExportOptions(captions=CaptionMode.SRT, size=(96, 64)))
    finally:
        project.close()
    assert all(len(text.splitlines()) <= 2 for _, _, text in entries), entries
    _assert_in_order(entries)
    assert entries[0][0] == 0 and entries[-1][1] == pytest.approx(1.0, abs=1e-3)
    # one subtitle a 5/6 s the second holds, never one that only flashes by
    assert all(end - start >= LEAST - 1e-3 for start, end, _ in entries), entries
    shown = " ".join(" ".join(text.split()) for _, _, text in entries)
    for speaker, text in longer:  # each line begins, the rest cut after a whole word
        start = f"{speaker}: {text.split()[0]} "
        assert start in shown, (start, shown)
    assert shown.count("\u2026") == 4, shown
    assert any("turns 1, 2, 3" in note for note in result.notes), result.notes


def _text_lines(frame: np.ndarray) -> int:
    """How many lines of caption text a frame shows: bands of rows holding near-white pixels
    (the clips are strong plain colours), apart by more than a descender's gap."""
    inked = (np.all(frame > 200, axis=2).sum(axis=1) > 0).tolist()
    lines, gap = 0, 3
    for row in inked:
        if row and gap >= 3:
            lines += 1
        gap = 0 if row else gap + 1
    return lines


def test_the_burned_shared_caption_shows_two_lines_at_a_time(tmp_path: Path) -> None:
    project, leaf = _project(tmp_path / "burned", LINES, last_frames=48)
    try:
        video = export_branch(project, leaf, tmp_path / "burned.mp4",
                              options=ExportOptions(captions=CaptionMode.BURN, size=(320, 180)))
        entries = parse_srt(export_branch(project, leaf, tmp_path / "burned.srt").path.read_text(encoding="utf-8"))
    finally:
        project.close()
    frames = decode(video.path)
    middles = [round((start + end) / 2 * FPS) for start, end, _ in entries]
    counts = [_text_lines(frames[index]) for index in middles]
    assert all(1 <= count <= 2 for count in counts), counts
    # the caption changes where the subtitle does
    masks = [np.all(frames[index] > 200, axis=2) for index in middles]
    assert all(np.logical_xor(a, b).sum() > 100 for a, b in itertools.pairwise(masks))
