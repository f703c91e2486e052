"""Every OTIO clip plays only frames its media has, at any output rate (QA: at 30 fps a
one-frame 8 fps still, 0.125 s of media, became a clip of 4 output frames, 0.133 s, and
editors flagged it as running past the end of its media).

The Timeline rounds each clip to whole output frames, and the video cuts where it says: the
OTIO timeline keeps those cuts and that duration, playing each clip's whole output frames
and holding its last frame (a still clip of it) for what is left of the turn.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import opentimelineio as otio
import pytest

from studio.export import ExportOptions, export_branch
from studio.export.timeline import Timeline, output_frames, plan_timeline, seconds_to_frames
from studio.storage.ffmpeg import exact_fps

from .helpers import FPS, build, video_facts
from .test_otio_transition_handles import Durations, export_timeline, media_problems

RATES = [10.0, 12.0, 24.0, 25.0, 30000 / 1001, 30.0]
RATE_IDS = ["10fps", "12fps", "24fps", "25fps", "29.97fps", "30fps"]
CLIP_RATE = Fraction(FPS)


def turn_lengths(frames: list[int], durations: Durations, fps: Fraction) -> list[int]:
    """Output frames of each turn, as the video export counts them (studio.export.plan.turn_frames)."""
    return [max(1, seconds_to_frames(d, fps)) if d is not None else output_frames(f, CLIP_RATE, fps)
            for f, d in zip(frames, durations, strict=True)]


def video_timeline(frames: list[int], durations: Durations, crossfade: float, fps: float) -> Timeline:
    """Where the video export cuts: the shared plan, independently of the OTIO export."""
    rate = exact_fps(fps)
    return plan_timeline(turn_lengths(frames, durations, rate), rate, crossfade)


def _is_freeze(clip: otio.schema.Clip) -> bool:
    """A turn's held last frame: a still clip of its own (no time effect, which importers drop)."""
    return bool(clip.metadata["kamishibai"].get("hold")) and not clip.effects


def range_problems(timeline: otio.schema.Timeline, frames: list[int], plan: Timeline) -> list[str]:
    """Clips that play outside their media, freeze a frame it lacks, or cut elsewhere than the video."""
    problems: list[str] = []
    track = timeline.tracks[0]
    rate = float(plan.fps)
    by_turn: dict[int, list[otio.schema.Clip]] = {}
    for clip in track.find_clips():
        by_turn.setdefault(clip.metadata["kamishibai"]["turn"], []).append(clip)
        available = clip.media_reference.available_range
        count = frames[clip.metadata["kamishibai"]["turn"] - 1]
        source = clip.source_range
        if _is_freeze(clip):  # the held frame's own still clip, at the output rate
            if available.start_time != otio.opentime.RationalTime(0, rate) or \
                    not clip.media_reference.target_url.endswith("-hold.mp4"):
                problems.append(f"{clip.name}: media {available} of {clip.media_reference.target_url}")
        elif available != otio.opentime.TimeRange(otio.opentime.RationalTime(0, FPS),
                                                  otio.opentime.RationalTime(count, FPS)):
            problems.append(f"{clip.name}: media {available}, not its {count} frames at {FPS} fps")
        if not (available.start_time <= source.start_time
                  and source.end_time_exclusive() <= available.end_time_exclusive()):
            problems.append(f"{clip.name}: source {source} runs outside its media {available} "
                            f"(by {(source.end_time_exclusive() - available.end_time_exclusive()).to_seconds():.4f} s)")
    if sorted(by_turn) != list(range(1, len(plan.turns) + 1)):
        problems.append(f"turns {sorted(by_turn)} have clips, not 1 to {len(plan.turns)}")
        return problems
    for span in plan.turns:
        clips = by_turn[span.index + 1]
        start = track.range_of_child(clips[0]).start_time.to_seconds()
        end = track.range_of_child(clips[-1]).end_time_exclusive().to_seconds()
        if (start, end) != (pytest.approx(span.shown_from / rate, abs=1e-9),
                            pytest.approx(span.shown_to / rate, abs=1e-9)):
            problems.append(f"turn {span.index + 1} shows {start:.4f}-{end:.4f} s, the video "
                            f"{span.shown_from / rate:.4f}-{span.shown_to / rate:.4f} s")
        if sum(isinstance(item, otio.schema.Clip) and not _is_freeze(item) for item in clips) > 1:
            problems.append(f"turn {span.index + 1} has more than one clip")
    return problems


def random_cases(seed: int, count: int, fps: float) -> list[tuple[list[int], Durations, float]]:
    """Branches of 1 to 5 turns: clips of 1 to 17 frames at 8 fps, some held or trimmed,
    with hard cuts or a dissolve that fits at ``fps``."""
    rng = random.Random(seed)
    rate = exact_fps(fps)
    cases: list[tuple[list[int], Durations, float]] = []
    while len(cases) < count:
        turns = rng.randint(1, 5)
        frames = [rng.randint(1, 17) for _ in range(turns)]
        durations: Durations = [rng.choice([None, None, None, 1 / FPS, 0.5, 1.0, 1.5]) for _ in range(turns)]
        lengths = turn_lengths(frames, durations, rate)
        sides = [(i > 0) + (i < turns - 1) for i in range(turns)]
        room = min((length // side for length, side in zip(lengths, sides, strict=True) if side), default=0)
        crossfade = rng.randint(1, room) / float(rate) if room and rng.random() < 0.6 else 0.0
        cases.append((frames, durations, crossfade))
    return cases


def still_cases(fps: float) -> list[tuple[list[int], Durations, float]]:
    """A one-frame still alone, between two clips (hard cuts), and last after a dissolve."""
    lengths = turn_lengths([6, 1], [None, None], exact_fps(fps))
    fade = min(lengths[0], lengths[1]) / float(exact_fps(fps))
    return [([1], [None], 0.0), ([6, 1, 6], [None, None, None], 0.0), ([6, 1], [None, None], fade)]


@pytest.mark.parametrize("fps", RATES, ids=RATE_IDS)
def test_clips_play_only_the_output_frames_their_media_holds(tmp_path: Path, fps: float) -> None:
    """At rates above the clips' 8 fps a clip's last output frame can reach past its media;
    that frame is held instead, and the cuts and the duration stay the video's."""
    rate = exact_fps(fps)
    cases = still_cases(fps) + random_cases(seed=20240612 + round(fps * 1000), count=5, fps=fps)
    rounded_up = 0
    for number, (frames, durations, crossfade) in enumerate(cases):
        timeline, duration = export_timeline(tmp_path, frames, durations, crossfade, fps, name=f"case{number}")
        plan = video_timeline(frames, durations, crossfade, fps)
        case = f"clips {frames}, durations {durations}, crossfade {crossfade}, fps {fps}"
        assert range_problems(timeline, frames, plan) == [], case
        assert media_problems(timeline) == [], case
        assert timeline.duration().to_seconds() == pytest.approx(plan.total_frames / float(rate), abs=1e-9), case
        assert duration == pytest.approx(plan.duration, abs=1e-9), case
        rounded_up += sum(Fraction(f) * rate / CLIP_RATE < output_frames(f, CLIP_RATE, rate) for f in frames)
    # at a multiple of 8 fps every clip is a whole number of output frames: nothing to round
    assert rounded_up or rate % CLIP_RATE == 0, "some clip's output frames reach past its media"
    assert any(crossfade for _, _, crossfade in cases), "some cases dissolve"


def test_a_one_frame_still_at_30_fps_plays_three_frames_and_holds_the_fourth(tmp_path: Path) -> None:
    """0.125 s of media holds 3 whole frames at 30 fps (0.1 s); the Timeline gives the still
    4 (0.133 s), as the video shows it: the 4th is a freeze frame of its only frame."""
    timeline, _ = export_timeline(tmp_path, [6, 1, 6], [None, None, None], 0.0, 30.0)
    track = timeline.tracks[0]
    assert [item.name for item in track] == ["Turn 1", "Turn 2", "Turn 2 (hold)", "Turn 3"]
    still, hold = track[1], track[2]
    assert still.source_range == otio.opentime.TimeRange(otio.opentime.RationalTime(0, 30),
                                                         otio.opentime.RationalTime(3, 30))
    assert _is_freeze(hold) and hold.source_range.start_time == otio.opentime.RationalTime(0, 30)
    assert hold.source_range.duration == otio.opentime.RationalTime(1, 30)
    turn_3 = output_frames(6, CLIP_RATE, Fraction(30)) + 4
    assert track.range_of_child(track[3]).start_time == otio.opentime.RationalTime(turn_3, 30)


def test_the_otio_timeline_lasts_as_long_as_the_video_with_a_still_at_another_rate(tmp_path: Path) -> None:
    """The stitched video and the OTIO timeline of the same branch, at 30 fps from 8 fps clips."""
    fixture = build(tmp_path, turns=3, frames=[5, 3, 1])
    options = ExportOptions(fps=30.0, crossfade=2 / 30)
    try:
        video = export_branch(fixture.project, fixture.leaf, tmp_path / "v.mp4", options=options)
        export_branch(fixture.project, fixture.leaf, tmp_path / "v.otio", options=options)
    finally:
        fixture.project.close()
    timeline = otio.adapters.read_from_file(str(tmp_path / "v.otio"))
    plan = video_timeline([5, 3, 1], [None, None, None], 2 / 30, 30.0)
    assert range_problems(timeline, [5, 3, 1], plan) == []
    assert [item.name for item in timeline.tracks[0]][-3:] == ["Dissolve", "Turn 3", "Turn 3 (hold)"]
    assert media_problems(timeline) == []
    assert video_facts(video.path).frames == plan.total_frames
    assert timeline.duration().to_seconds() == pytest.approx(video.duration, abs=1e-9)
    assert timeline.duration() == otio.opentime.RationalTime(plan.total_frames, 30)


@pytest.mark.parametrize("fps", [3.0, 6.0], ids=["3fps", "6fps"])
def test_below_the_clips_rate_too_clips_stay_within_their_media(tmp_path: Path, fps: float) -> None:
    """Below 8 fps an output frame spans more than one clip frame; a clip shorter than one
    output frame (a still at 3 fps) has no whole frame to play, and is its frame, frozen."""
    for number, (frames, durations, crossfade) in enumerate(still_cases(fps) + random_cases(7, 4, fps)):
        timeline, duration = export_timeline(tmp_path, frames, durations, crossfade, fps, name=f"case{number}")
        plan = video_timeline(frames, durations, crossfade, fps)
        case = f"clips {frames}, durations {durations}, crossfade {crossfade}, fps {fps}"
        assert range_problems(timeline, frames, plan) == [], case
        assert media_problems(timeline) == [], case
        assert duration == pytest.approx(plan.duration, abs=1e-9), case
        if frames == [1] and fps == 3.0:
            (still,) = timeline.tracks[0]
            assert still.name == "Turn 1" and _is_freeze(still) and still.metadata["kamishibai"]["node_id"]
