"""A first turn of one frame joined by a one-frame crossfade had its cut at its very start:
the OTIO timeline held a "Turn 1" clip of 0 frames, which editors refuse. The cut now moves
within the dissolve so that every turn shows for at least one frame; where the episode has
fewer frames than turns, the turn with no frame is a marker, not a clip. The timeline's
length stays the stitched video's, both read back from the files."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import imageio_ffmpeg
import opentimelineio as otio
import pytest

from studio.core import SetDuration
from studio.export import ExportOptions, export_branch
from studio.export.timeline import plan_timeline

from .helpers import Fixture, build

CASES = [
    # clip frames at 8 fps, crossfade (s), output fps (None: the clips'), durations set (s)
    ([6, 6], 0.125, None, [0.1, None]),          # the reported case: 0.1 s is one frame
    ([1, 6], 0.125, None, [None, None]),
    ([1, 2, 6], 0.125, None, [None, None, None]),  # several short turns
    ([1, 2, 2, 6], 0.125, None, [None, None, None, None]),
    ([1, 6], 0.125, 24, [None, None]),             # another output rate: a 3-frame dissolve
    ([6, 6], 0.1, 10, [0.1, None]),                # one output frame at 10 fps, a one-frame dissolve
    ([2, 4, 2], 0.25, None, [None, None, None]),   # the crossfade as long as a turn allows
    ([3, 6, 3], 0.375, None, [None, None, None]),
]


def _items(path: Path) -> tuple[otio.schema.Track, float]:
    timeline = otio.adapters.read_from_file(str(path))
    track = timeline.tracks[0]
    return track, timeline.duration().to_frames()


def _exported(story: Fixture, folder: Path, options: ExportOptions) -> tuple[int, otio.schema.Track, float]:
    """The branch exported as a video and as a timeline, read back: the video's frame count,
    the timeline's track and its length in frames (the project is closed after)."""
    try:
        video = export_branch(story.project, story.leaf, folder / "episode.mp4", options=options).path
        timeline = export_branch(story.project, story.leaf, folder / "episode.otio", options=options).path
    finally:
        story.project.close()
    video_frames, _seconds = imageio_ffmpeg.count_frames_and_secs(str(video))
    return video_frames, *_items(timeline)


@pytest.mark.parametrize(("frames", "crossfade", "fps", "durations"), CASES)
def test_every_clip_lasts_a_frame_and_the_timeline_is_the_video(
        tmp_path: Path, frames: list[int], crossfade: float, fps: int | None, durations: list[float | None]) -> None:
    story = build(tmp_path, turns=len(frames), frames=frames)
    for node, seconds in zip(story.nodes, durations, strict=True):
        if seconds is not None:
            story.project.apply(SetDuration(node, seconds))
    video_frames, track, timeline_frames = _exported(story, tmp_path, ExportOptions(crossfade=crossfade, fps=fps))
    assert timeline_frames == video_frames
    clips = [item for item in track if isinstance(item, otio.schema.Clip)]
    assert all(item.source_range.duration.value >= 1 for item in track if not isinstance(item, otio.schema.Transition))
    assert sorted({clip.metadata["kamishibai"]["turn"] for clip in clips}) == list(range(1, len(frames) + 1))
    for index, item in enumerate(track):  # a dissolve takes no more than the clips either side have
        if isinstance(item, otio.schema.Transition):
            assert item.in_offset.value >= 0 and item.out_offset.value >= 0
            assert item.in_offset.value + item.out_offset.value >= 1
            assert item.out_offset.value <= track[index - 1].source_range.duration.value + item.out_offset.value
            assert isinstance(track[index + 1], otio.schema.Clip)


def test_fewer_frames_than_turns_leaves_a_marker_not_an_empty_clip(tmp_path: Path) -> None:
    """Two one-frame turns joined by a one-frame dissolve are one frame of video."""
    story = build(tmp_path, turns=2, frames=[1, 1])
    video_frames, track, timeline_frames = _exported(story, tmp_path, ExportOptions(crossfade=0.125))
    assert video_frames == timeline_frames == 1
    assert [item.name for item in track] == ["Turn 1"]
    unseen = [marker for marker in track.markers if marker.metadata["kamishibai"].get("unseen")]
    assert [marker.metadata["kamishibai"]["turn"] for marker in unseen] == [2]


@pytest.mark.parametrize("clips", [[1, 5], [1, 2, 5], [1, 2, 2, 2, 1], [3, 4], [2, 4, 4, 2], [1, 1, 1]])
@pytest.mark.parametrize("crossfade", [0.0, 0.125, 0.25])
def test_the_plan_gives_each_turn_a_frame_where_there_are_enough(clips: list[int], crossfade: float) -> None:
    fps = Fraction(8)
    try:
        plan = plan_timeline(clips, fps, crossfade, title_seconds=0.25)
    except Exception:  # a crossfade too long for a turn is refused with its own message
        return
    shown = [span.shown_to - span.shown_from for span in plan.turns]
    assert sum(shown) == plan.total_frames - plan.title_frames  # the cuts tile the turns' frames
    assert plan.turns[0].shown_from == plan.title_frames
    for span in plan.turns:  # a cut stays inside its dissolve: the video does not change
        assert span.start <= span.shown_from <= span.shown_to <= span.end
        if span.index:
            assert span.shown_from <= plan.turns[span.index - 1].end
    if sum(shown) >= len(clips):
        assert min(shown) >= 1
