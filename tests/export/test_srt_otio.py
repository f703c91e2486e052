"""SRT timings and the OpenTimelineIO timeline agree with the clips and with the video."""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import opentimelineio as otio
import pytest

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import ExportOptions, export_branch

from .helpers import FPS, Fixture, container_duration, parse_srt


def test_srt_matches_the_clips(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "episode.srt"
    result = export_branch(story.project, story.leaf, out)
    entries = parse_srt(out.read_text(encoding="utf-8"))
    assert len(entries) == 3
    at = 0.0
    for (start, end, text), frames, number in zip(entries, story.frames, (1, 2, 3), strict=True):
        assert start == pytest.approx(at, abs=0.001)
        assert end == pytest.approx(at + frames / FPS, abs=0.001)
        assert f"Qiqi gently waves {number} in the town, by day." == text  # a sentence, not the field syntax
        at += frames / FPS
    assert result.duration == pytest.approx(at)


def test_srt_with_crossfades_and_title_matches_the_video(story: Fixture, tmp_path: Path) -> None:
    options = ExportOptions(crossfade=0.25, title="Hello", title_duration=1.0)
    srt = export_branch(story.project, story.leaf, tmp_path / "fade.srt", options=options)
    video = export_branch(story.project, story.leaf, tmp_path / "fade.mp4", options=options)
    entries = parse_srt(srt.path.read_text())
    assert entries[0][0] == pytest.approx(1.0)
    for (_, end, _), (start, _, _) in itertools.pairwise(entries):
        assert end == pytest.approx(start), "captions meet at the cut points"
    # first clip: 6 frames, the dissolve (2 frames) is cut in its middle
    assert entries[0][1] == pytest.approx(1.0 + 5 / FPS)
    assert entries[-1][1] == pytest.approx(video.duration)
    assert abs(container_duration(video.path) - srt.duration) <= 1 / FPS


def clips_of(timeline: otio.schema.Timeline) -> list[otio.schema.Clip]:
    return list(timeline.find_clips())


def test_otio_reopens_with_clip_count_and_durations(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "episode.otio"
    result = export_branch(story.project, story.leaf, out)
    timeline = otio.adapters.read_from_file(str(out))
    clips = clips_of(timeline)
    assert len(clips) == 3
    for clip, frames, node_id in zip(clips, story.frames, story.nodes, strict=True):
        assert clip.source_range.duration == otio.opentime.RationalTime(frames, FPS)
        assert clip.source_range.start_time.value == 0
        assert clip.media_reference.available_range.duration.value == frames
        assert clip.media_reference.available_range.duration.rate == FPS
        # relative to the timeline: a copy in the media folder beside it
        path = out.parent / url2pathname(urlparse(clip.media_reference.target_url).path)
        assert not Path(url2pathname(urlparse(clip.media_reference.target_url).path)).is_absolute()
        assert path.parent == out.parent / "episode_media" and path.is_file()
        assert clip.metadata["kamishibai"]["node_id"] == node_id
    assert timeline.duration().to_seconds() == pytest.approx(result.duration)
    assert timeline.duration().to_seconds() == pytest.approx(sum(story.frames) / FPS)


def test_otio_transitions_for_crossfades(story: Fixture, tmp_path: Path) -> None:
    options = ExportOptions(crossfade=0.25, title="Hello", title_duration=1.0, end_card="Bye", end_card_duration=0.5)
    out = tmp_path / "fade.otio"
    result = export_branch(story.project, story.leaf, out, options=options)
    video = export_branch(story.project, story.leaf, tmp_path / "fade.mp4", options=options)
    timeline = otio.adapters.read_from_file(str(out))
    track = timeline.tracks[0]
    transitions = [item for item in track if isinstance(item, otio.schema.Transition)]
    assert len(transitions) == 2
    assert all(t.in_offset + t.out_offset == otio.opentime.RationalTime(2, FPS) for t in transitions)
    assert len([clip for clip in clips_of(timeline) if "card" not in clip.metadata["kamishibai"]]) == 3
    assert track[0].metadata["kamishibai"]["card"] == "title"
    assert timeline.duration().to_seconds() == pytest.approx(result.duration)
    assert timeline.duration().to_seconds() == pytest.approx(video.duration)
    # every clip has the handles its transitions need
    for clip in clips_of(timeline):
        available = clip.media_reference.available_range
        assert available.start_time <= clip.source_range.start_time
        assert clip.source_range.end_time_exclusive() <= available.end_time_exclusive()
        if "card" not in clip.metadata["kamishibai"]:
            assert available.duration.value == 6


def _with_story(story: Fixture) -> None:
    """Turn 1: narration and two lines; turn 2: held to 2 s; turns 2 and 3 show their action."""
    first, second, _third = story.nodes
    story.project.apply(SetNarration(first, "The town wakes up."))
    story.project.apply(AddDialogueLine(first, "Qiqi", "I'm late!"))
    story.project.apply(AddDialogueLine(first, "Mei", "Good luck on your first delivery, Qiqi!"))
    story.project.apply(SetDuration(second, 2.0))


def test_dialogue_and_narration_reach_the_srt_in_order_within_their_turn(story: Fixture, tmp_path: Path) -> None:
    _with_story(story)
    result = export_branch(story.project, story.leaf, tmp_path / "story.srt")
    entries = parse_srt(result.path.read_text(encoding="utf-8"))
    # turn 1 lasts 0.75 s, too short for a subtitle of 5/6 s each of its three lines: the two
    # spoken ones share one (the narration keeps its own, in italics), and its captions run on
    # into turn 2 (held, time to spare) for 5/6 s each
    assert [text for _, _, text in entries] == [
        "<i>The town wakes up.</i>", "Qiqi: I'm late! / Mei: Good luck\non your first delivery, Qiqi!",
        "Qiqi gently waves 2 in the town, by day.", "Qiqi gently waves 3 in the town, by day."]
    assert all(len(line) <= 42 for _, _, text in entries for line in text.splitlines()), "lines wrap at 42"
    first_turn = story.frames[0] / FPS
    minimum = math.ceil(FPS * 5 / 6) / FPS
    assert first_turn < minimum
    assert entries[0][:2] == pytest.approx((0, minimum))
    assert entries[1][:2] == pytest.approx((minimum, 2 * minimum))
    # turn 2 lasts 2 s (its clip is 0.75 s, held on its last frame)
    total = first_turn + 2.0 + story.frames[2] / FPS
    last = max(story.frames[2] / FPS, minimum)  # the last turn's caption takes its minimum from turn 2 too
    assert entries[2][:2] == pytest.approx((2 * minimum, total - last))
    assert entries[3][0] == pytest.approx(total - last)
    assert result.duration == pytest.approx(total)


def test_otio_holds_a_long_turn_and_marks_every_cue(story: Fixture, tmp_path: Path) -> None:
    _with_story(story)
    result = export_branch(story.project, story.leaf, tmp_path / "story.otio")
    timeline = otio.adapters.read_from_file(str(result.path))
    assert timeline.duration().to_seconds() == pytest.approx(result.duration)
    clips = clips_of(timeline)
    assert [c.name for c in clips] == ["Turn 1", "Turn 2", "Turn 2 (hold)", "Turn 3"]
    hold = clips[2]
    # the held last frame is a still clip of its own, no time effect (importers drop those)
    assert not hold.effects and hold.media_reference.target_url == f"story_media/take-t{story.nodes[1]}-hold.mp4"
    assert hold.source_range.start_time.value == 0
    assert (clips[1].duration() + hold.duration()).to_seconds() == pytest.approx(2.0)
    track = timeline.tracks[0]
    markers = [(m.name, m.metadata["kamishibai"]["kind"]) for m in track.markers]
    assert markers == [("The town wakes up.", "narration"),
                       ("Qiqi: I'm late! / Mei: Good luck on your first delivery, Qiqi!", "dialogue"),  # see above
                       ("Qiqi gently waves 2 in the town, by day.", "action"),
                       ("Qiqi gently waves 3 in the town, by day.", "action")]
    assert [list(line) for line in clips[0].metadata["kamishibai"]["dialogue"]] == [["Qiqi", "I'm late!"],
                                                           ["Mei", "Good luck on your first delivery, Qiqi!"]]


def test_more_lines_than_a_turn_has_time_for_share_one_subtitle_in_order(story: Fixture, tmp_path: Path) -> None:
    """Nine lines in a turn of 0.75 s whose neighbours have no time to spare: one subtitle a
    frame flashed them by; now they share one subtitle over the turn, each line's start in
    order, and the export says the caption was shortened."""
    first = story.nodes[0]
    lines = [f"line number {k}" for k in range(1, story.frames[0] + 4)]  # three more lines than frames
    for k, text in enumerate(lines):
        story.project.apply(AddDialogueLine(first, "Qiqi" if k % 2 else "Mei", text))
    srt = export_branch(story.project, story.leaf, tmp_path / "many.srt")
    entries = parse_srt(srt.path.read_text(encoding="utf-8"))
    (start, end, text), *others = entries
    assert (start, end) == pytest.approx((0, story.frames[0] / FPS)), entries
    assert len(text.splitlines()) <= 2
    # the lines joined apart by " / " where one ends without its slash (the line break parts them)
    parts = [part for line in text.splitlines() for part in " ".join(line.split()).split(" / ")]
    assert 1 < len(parts) <= len(lines) and parts[-1].endswith("\u2026"), parts
    for k, part in enumerate(parts):  # the lines' starts, in order, each with its speaker
        speaker, said = part.split(": ", 1)
        assert speaker == ("Qiqi" if k % 2 else "Mei") and lines[k].startswith(said.removesuffix("\u2026")), parts
    assert [text for _, _, text in others] == [f"Qiqi gently waves {n} in the town, by day." for n in (2, 3)]
    assert any("turn 1's caption" in note for note in srt.notes), srt.notes


def test_split_span_gives_every_cue_a_frame_and_merges_only_when_it_must() -> None:
    from studio.export.cues import Cue, CueKind, split_span

    cues = [Cue(CueKind.DIALOGUE, f"line {k}", "Qiqi") for k in range(5)]
    assert [t.cue for t in split_span(cues, 10, 20)] == cues
    timed = split_span(cues, 10, 12)
    assert [(t.start, t.end) for t in timed] == [(10, 11), (11, 12)]
    assert [t.cue.text for t in timed] == ["Qiqi: line 0 / Qiqi: line 1", "Qiqi: line 2 / Qiqi: line 3 / Qiqi: line 4"]
    narration = [Cue(CueKind.NARRATION, "a"), Cue(CueKind.NARRATION, "b")]
    assert split_span(narration, 0, 1)[0].cue == Cue(CueKind.NARRATION, "a / b")
    assert split_span(cues, 3, 3) == []


@pytest.mark.parametrize("fps", [30.0, 10.0, 12.0])
def test_otio_cuts_where_the_video_cuts_at_another_frame_rate(story: Fixture, tmp_path: Path, fps: float) -> None:
    """At an output rate other than the clips' own, each clip's range is counted in output
    frames, so rounding can't add up: the timeline is as long as the video and every clip
    starts where its caption (the video's cut) does."""
    _with_story(story)  # a held turn and captions
    for node in (story.nodes[0], story.nodes[2]):  # each long enough for its own captions: none borrows time
        story.project.apply(SetDuration(node, 2.5))
    options = ExportOptions(fps=fps, crossfade=0.25)
    video = export_branch(story.project, story.leaf, tmp_path / "v.mp4", options=options)
    export_branch(story.project, story.leaf, tmp_path / "v.otio", options=options)
    track = otio.adapters.read_from_file(str(tmp_path / "v.otio")).tracks[0]
    assert track.duration().to_seconds() == pytest.approx(video.duration, abs=1e-6)
    assert track.duration().to_seconds() == pytest.approx(container_duration(tmp_path / "v.mp4"), abs=0.05)
    firsts: dict[int, float] = {}
    for marker in track.markers:
        turn = marker.metadata["kamishibai"]["turn"]
        firsts.setdefault(turn, marker.marked_range.start_time.to_seconds())
    for clip in clips_of(track):
        data = clip.metadata["kamishibai"]
        if data.get("hold"):
            continue
        start = track.range_of_child(clip).start_time.to_seconds()
        assert start == pytest.approx(firsts[data["turn"]], abs=1e-6), (data["turn"], start, firsts)


def test_srt_shows_angle_brackets_as_look_alikes_and_otio_keeps_them(story: Fixture, tmp_path: Path) -> None:
    """SRT has no escape for < and >: players read <b>, <i> and <font> in a cue as tags (and
    &lt; shows as itself in many), so a line that says "<b>" would turn bold. The SRT shows
    look-alikes; the OTIO markers, plain JSON, keep the text as written."""
    first = story.nodes[0]
    line = "<b>not bold</b> & 1 < 2 > 0"
    story.project.apply(SetNarration(first, "<i>Quietly</i>"))
    story.project.apply(AddDialogueLine(first, "Qiqi", line))
    story.project.apply(SetDuration(first, 2.0))  # time for a subtitle of 5/6 s each
    srt = export_branch(story.project, story.leaf, tmp_path / "tags.srt")
    entries = [text for _, _, text in parse_srt(srt.path.read_text(encoding="utf-8"))]
    assert entries[:2] == ["<i>\u2039i\u203aQuietly\u2039/i\u203a</i>",
                           "Qiqi: \u2039b\u203anot bold\u2039/b\u203a & 1 \u2039 2 \u203a 0"]
    assert all("<" not in text.removeprefix("<i>").removesuffix("</i>") for text in entries)
    timeline = otio.adapters.read_from_file(str(export_branch(story.project, story.leaf, tmp_path / "tags.otio").path))
    assert [m.name for m in timeline.tracks[0].markers][:2] == ["<i>Quietly</i>", f"Qiqi: {line}"]


def test_srt_neutralises_subtitle_override_tags_and_otio_keeps_them(story: Fixture, tmp_path: Path) -> None:
    """Players obey ASS override blocks in SRT text ({\\an8} moves a cue to the top, {\\i1}
    turns it italic, and libass hides any {...} block) and read \\N as a line break: the SRT
    shows the braces as look-alikes and breaks \\N up with an invisible word joiner, so the
    text typed stays visible and does nothing. The OTIO markers keep it as written."""
    first = story.nodes[0]
    line = r"{\an8}Hi {\i1}now{\i0} {y:i} C:\New"  # {y:i}: a MicroDVD tag some players read
    story.project.apply(SetNarration(first, r"{\b1}Loud{\b0}"))
    story.project.apply(AddDialogueLine(first, "Qiqi", line))
    story.project.apply(SetDuration(first, 2.0))  # time for a subtitle of 5/6 s each
    srt = export_branch(story.project, story.leaf, tmp_path / "tags.srt")
    entries = [text for _, _, text in parse_srt(srt.path.read_text(encoding="utf-8"))]
    assert entries[:2] == ["<i>\u2774\\b1\u2775Loud\u2774\\b0\u2775</i>",
                           "Qiqi: \u2774\\an8\u2775Hi \u2774\\i1\u2775now\u2774\\i0\u2775 \u2774y:i\u2775 "
                           "C:\\\u2060New"]
    assert not any(brace in text for text in entries for brace in "{}")
    visible = [text.replace("\u2060", "").replace("\u2774", "{").replace("\u2775", "}") for text in entries[:2]]
    assert visible == [r"<i>{\b1}Loud{\b0}</i>", f"Qiqi: {line}"], "every character typed still shows"
    timeline = otio.adapters.read_from_file(str(export_branch(story.project, story.leaf, tmp_path / "tags.otio").path))
    assert [m.name for m in timeline.tracks[0].markers][:2] == [r"{\b1}Loud{\b0}", f"Qiqi: {line}"]
