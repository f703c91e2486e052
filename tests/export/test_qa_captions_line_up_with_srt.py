"""A long narration becomes several SRT cues; the OTIO markers and the burned-in captions
show those same subtitles and must change at the frames the SRT's cues change (QA: beside a
narration cut into three subtitles, a short dialogue line's marker lasted 2 frames where
its subtitle lasted 7, and started 5 frames after it, so the SRT and the timeline imported
into one editor did not line up)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import opentimelineio as otio
import pytest

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import ExportOptions, export_branch
from studio.export.branch import collect_branch
from studio.export.compose import frame_patches
from studio.export.options import CaptionMode
from studio.export.timeline import plan_timeline

from .helpers import FPS, Fixture, parse_srt

NARRATION = ("The town wakes up slowly under a pale winter sky. Smoke rises from the bakery chimney and "
             "the smell of warm bread fills the lane. Nobody is in a hurry yet!")
SECONDS = 5.0  # 40 frames: the short line gets the SRT's floor of 7 frames (5/6 s)


def _first_turn_cues(story: Fixture) -> None:
    first = story.nodes[0]
    story.project.apply(SetDuration(first, SECONDS))
    story.project.apply(SetNarration(first, NARRATION))
    story.project.apply(AddDialogueLine(first, "Qiqi", "Hi!"))
    story.project.apply(AddDialogueLine(first, "Yuzu", "Good morning to you, baker."))


def _srt_boundaries(path: Path) -> list[float]:
    entries = parse_srt(path.read_text(encoding="utf-8"))
    return sorted({round(t, 3) for start, end, _ in entries if end <= SECONDS + 1e-6 for t in (start, end)})


def test_otio_markers_start_and_end_where_the_srt_cues_do(story: Fixture, tmp_path: Path) -> None:
    _first_turn_cues(story)
    srt = export_branch(story.project, story.leaf, tmp_path / "episode.srt").path
    entries = parse_srt(srt.read_text(encoding="utf-8"))
    assert sum(text.startswith("<i>") for _, _, text in entries) == 3, "the narration takes three subtitles"
    timeline = otio.adapters.read_from_file(str(export_branch(story.project, story.leaf, tmp_path / "e.otio").path))
    markers = [m for m in timeline.tracks[0].markers if m.metadata["kamishibai"]["turn"] == 1]
    mine = [entry for entry in entries if entry[1] <= SECONDS + 1e-6]
    # a marker for each subtitle, the narration's three too, named with its text, over its frames
    assert [m.name for m in markers] == [" ".join(text.removeprefix("<i>").removesuffix("</i>").split())
                                         for _, _, text in mine]
    assert [m.name for m in markers][-2:] == ["Qiqi: Hi!", "Yuzu: Good morning to you, baker."]
    assert " ".join(m.name for m in markers[:3]) == NARRATION
    spans = [(m.marked_range.start_time.to_seconds(), m.marked_range.end_time_exclusive().to_seconds())
             for m in markers]
    assert spans == [pytest.approx((start, end), abs=1e-3) for start, end, _ in mine]


def test_burned_captions_change_at_the_srt_cue_boundaries(story: Fixture, tmp_path: Path) -> None:
    _first_turn_cues(story)
    srt = export_branch(story.project, story.leaf, tmp_path / "episode.srt").path
    boundaries = _srt_boundaries(srt)
    branch = collect_branch(story.project, story.leaf)
    fps = Fraction(FPS)
    timeline = plan_timeline([round(SECONDS * FPS), *story.frames[1:]], fps)
    owner, _ = frame_patches(branch, timeline, (96, 64), ExportOptions(captions=CaptionMode.BURN))
    turn = timeline.turns[0]
    changes = [frame for frame in range(turn.shown_from + 1, turn.shown_to) if owner[frame] != owner[frame - 1]]
    caption_bounds = [0.0, *(frame / FPS for frame in changes), turn.shown_to / FPS]
    # a caption for each subtitle, the narration's three too: it changes where the SRT's cues do
    assert caption_bounds == pytest.approx(boundaries, abs=1e-3)
