"""Every OTIO dissolve has the media it needs on both sides (QA: a dissolve into a clip held
for a single frame reached before the start of its media, and editors rejected it).

A transition's ``in_offset`` plays the incoming clip's media from before its source range,
and its ``out_offset`` the outgoing clip's media after its source range: each must fit in
the clip's media (its ``available_range``). A held last frame is a still clip of its own, whose media runs on
for a dissolve's frames after it.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import opentimelineio as otio
import pytest

from studio.core import SetDuration
from studio.export import ExportOptions, export_branch

from .helpers import FPS, build

Durations = list[float | None]


def _is_hold(clip: otio.schema.Clip) -> bool:
    """A turn's held last frame: a clip of its own (the last frame as a still), no time effect."""
    return bool(clip.metadata["kamishibai"].get("hold")) and not clip.effects


def media_problems(timeline: otio.schema.Timeline) -> list[str]:
    """What each transition of the timeline asks of its neighbours' media and doesn't get."""
    problems: list[str] = []
    for track in timeline.tracks:
        items = list(track)
        for index, item in enumerate(items):
            if not isinstance(item, otio.schema.Transition):
                continue
            assert 0 < index < len(items) - 1, "a transition sits between two items"
            outgoing, incoming = items[index - 1], items[index + 1]
            assert item.in_offset.value > 0 or item.out_offset.value > 0, "an empty transition is a cut"
            assert item.in_offset.value >= 0 and item.out_offset.value >= 0
            if isinstance(incoming, otio.schema.Clip):
                available = incoming.media_reference.available_range
                if incoming.source_range.start_time - item.in_offset < available.start_time:
                    problems.append(f"{item.name} into {incoming.name}: in_offset {item.in_offset} reaches "
                                    f"before its media {available} (source {incoming.source_range})")
            if isinstance(outgoing, otio.schema.Clip):
                available = outgoing.media_reference.available_range
                if outgoing.source_range.end_time_exclusive() + item.out_offset > available.end_time_exclusive():
                    problems.append(f"{item.name} out of {outgoing.name}: out_offset {item.out_offset} reaches "
                                    f"past its media {available} (source {outgoing.source_range})")
    return problems


def export_timeline(tmp_path: Path, frames: list[int], durations: Durations, crossfade: float,
                    fps: float | None = None, name: str = "story") -> tuple[otio.schema.Timeline, float]:
    fixture = build(tmp_path, turns=len(frames), frames=frames, name=name)
    try:
        for node, duration in zip(fixture.nodes, durations, strict=True):
            if duration is not None:
                fixture.project.apply(SetDuration(node, duration))
        out = tmp_path / f"{name}.otio"
        result = export_branch(fixture.project, fixture.leaf, out, options=ExportOptions(crossfade=crossfade, fps=fps))
    finally:
        fixture.project.close()
    return otio.adapters.read_from_file(str(out)), result.duration


def test_a_dissolve_into_a_one_frame_still_held_for_a_second_stays_within_its_media(tmp_path: Path) -> None:
    """Turn 2 is a still (a clip of one frame) held for a second: the dissolve into it can't
    start before that frame; the dissolve out of its freeze frame keeps its full length."""
    timeline, duration = export_timeline(tmp_path, [6, 1, 6], [None, 1.0, None], crossfade=0.25)
    assert media_problems(timeline) == []
    track = timeline.tracks[0]
    assert [item.name for item in track] == ["Turn 1", "Dissolve", "Turn 2", "Turn 2 (hold)", "Dissolve", "Turn 3"]
    into_still, out_of_hold = (item for item in track if isinstance(item, otio.schema.Transition))
    assert (into_still.in_offset.value, into_still.out_offset.value) == (0, 1), "the still has no head"
    assert (out_of_hold.in_offset.value, out_of_hold.out_offset.value) == (1, 1)
    assert timeline.duration().to_seconds() == pytest.approx(duration), "transitions don't move the cuts"


def test_a_clip_shorter_than_half_the_dissolve_gets_a_shorter_dissolve(tmp_path: Path) -> None:
    """Turn 2's clip has 2 frames, held to 2 s; a 1 s dissolve (4 frames each side of the
    cut) only has the one frame of its head before the cut."""
    timeline, duration = export_timeline(tmp_path, [12, 2, 12], [None, 2.0, None], crossfade=1.0)
    assert media_problems(timeline) == []
    transitions = [item for item in timeline.tracks[0] if isinstance(item, otio.schema.Transition)]
    assert [(t.in_offset.value, t.out_offset.value) for t in transitions] == [(1, 4), (4, 4)]
    assert timeline.duration().to_seconds() == pytest.approx(duration)


def test_a_dissolve_with_no_media_on_either_side_becomes_a_cut(tmp_path: Path) -> None:
    """Turn 1 (6 frames) lasts 7 frames: up to the cut it plays its clip to the last frame, so
    nothing is left after it; turn 2 is a still, with nothing before it. The dissolve has no
    frames on either side: the timeline cuts there, at the same place."""
    timeline, duration = export_timeline(tmp_path, [6, 1], [7 / FPS, 1.0], crossfade=0.25)
    assert media_problems(timeline) == []
    assert [item.name for item in timeline.tracks[0]] == ["Turn 1", "Turn 2", "Turn 2 (hold)"]
    assert timeline.duration().to_seconds() == pytest.approx(duration)


def random_cases(seed: int, count: int, fps: float) -> list[tuple[list[int], Durations, float]]:
    """Branches of 2 to 4 turns: clips of 1 to 12 frames, some held or trimmed to a few
    frames or seconds, with the longest dissolve that fits at ``fps`` or a shorter one."""
    rng = random.Random(seed)
    rate = Fraction(fps)
    cases: list[tuple[list[int], Durations, float]] = []
    while len(cases) < count:
        turns = rng.randint(2, 4)
        frames = [rng.choice([1, 1, 2, 3, 5, 8, 12]) for _ in range(turns)]
        durations: Durations = [rng.choice([None, None, 1 / FPS, 3 / FPS, 0.5, 1.0, 2.0]) for _ in range(turns)]
        lengths = [max(1, round(Fraction(d) * rate if d is not None else Fraction(f) * rate / FPS))
                   for f, d in zip(frames, durations, strict=True)]
        sides = [(i > 0) + (i < turns - 1) for i in range(turns)]
        room = min(length // side for length, side in zip(lengths, sides, strict=True))
        if room == 0:  # no dissolve fits: nothing to check
            continue
        cases.append((frames, durations, rng.randint(1, room) / fps))
    return cases


@pytest.mark.parametrize("fps", [None, 12.0, 30.0], ids=["clip-rate", "12fps", "30fps"])
def test_random_short_and_long_clips_give_every_dissolve_its_media(tmp_path: Path, fps: float | None) -> None:
    """At the clips' own rate and at others (the ranges then count output frames)."""
    checked = 0
    for number, (frames, durations, crossfade) in enumerate(random_cases(seed=20240611, count=10, fps=fps or FPS)):
        timeline, duration = export_timeline(tmp_path, frames, durations, crossfade, fps, name=f"case{number}")
        case = f"clips {frames}, durations {durations}, crossfade {crossfade}, fps {fps}"
        assert media_problems(timeline) == [], case
        assert timeline.duration().to_seconds() == pytest.approx(duration), case
        checked += sum(isinstance(item, otio.schema.Transition) for item in timeline.tracks[0])
    assert checked >= 10, "the cases hold dissolves to check"
