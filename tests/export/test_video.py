"""Video exports read back with ffmpeg: duration, fps, size, codec and pixels."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import opentimelineio as otio
import pytest

from studio.core import AddDialogueLine, SetDuration
from studio.export import CaptionMode, ExportError, ExportFormat, ExportOptions, export_branch

from .helpers import FPS, SIZE, Fixture, build, close_to, container_duration, decode, gif_delays, video_facts


def clip_starts(fixture: Fixture, offset: int = 0) -> list[int]:
    starts, at = [], offset
    for frames in fixture.frames:
        starts.append(at)
        at += frames
    return starts


def assert_turn_colours(frames: np.ndarray, fixture: Fixture, offset: int = 0, centre_only: bool = False) -> None:
    """The first frame of each clip shows that clip's colour at its timestamp; the frame
    before it still shows the previous clip."""
    height, width = frames.shape[1:3]
    y, x = height // 2, width // 2
    for index, start in enumerate(clip_starts(fixture, offset)):
        assert close_to(frames[start, y, x], fixture.colours[index]), (index, start, frames[start, y, x])
        if not centre_only:
            assert close_to(frames[start, 2, 2], fixture.colours[index])
        if index:
            assert close_to(frames[start - 1, y, x], fixture.colours[index - 1]), (index, start)


def test_plain_mp4_joins_by_stream_copy(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "episode.mp4"
    result = export_branch(story.project, story.leaf, out)
    assert result.used_stream_copy
    assert result.paths == (out,)
    assert result.format == ExportFormat.MP4
    facts = video_facts(out)
    assert (facts.codec, facts.pix_fmt, facts.width, facts.height) == ("h264", "yuv420p", *SIZE)
    assert facts.fps == pytest.approx(FPS)
    assert facts.frames == sum(story.frames) == result.frames
    expected = sum(story.frames) / FPS
    assert abs(container_duration(out) - expected) <= 1 / FPS
    assert result.duration == pytest.approx(expected)
    assert_turn_colours(decode(out), story)
    data = out.read_bytes()
    assert data.index(b"moov") < data.index(b"mdat"), "faststart: the index comes first"


def test_reencoded_mp4_matches_the_clips(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "episode.mp4"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(stream_copy=False))
    assert not result.used_stream_copy
    facts = video_facts(out)
    assert (facts.codec, facts.pix_fmt, facts.width, facts.height) == ("h264", "yuv420p", *SIZE)
    assert facts.frames == sum(story.frames)
    assert abs(container_duration(out) - sum(story.frames) / FPS) <= 1 / FPS
    assert_turn_colours(decode(out), story)
    data = out.read_bytes()
    assert data.index(b"moov") < data.index(b"mdat")


def test_overlay_forces_reencoding_and_draws_the_bars(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "overlay.mp4"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(overlay=True, size=(320, 240)))
    assert not result.used_stream_copy
    frames = decode(out)
    assert frames.shape[1:3] == (240, 320)
    first = frames[0]
    # the panel sits in the top-left corner; the clip's colour fills the middle
    assert not close_to(first[14, 14], story.colours[0], tolerance=30)
    assert close_to(first[160, 200], story.colours[0])


def test_size_and_fps_are_as_asked_with_letterbox(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "square.mp4"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(size=(160, 160), fps=16))
    assert not result.used_stream_copy
    facts = video_facts(out)
    assert (facts.width, facts.height) == (160, 160)
    assert facts.fps == pytest.approx(16)
    assert facts.frames == 2 * sum(story.frames)
    assert abs(container_duration(out) - sum(story.frames) / FPS) <= 1 / 16
    frames = decode(out)
    # 96x64 scaled to fit 160x160 is 160x107: black bars above and below
    assert frames[10, 2, 80].max() < 20 and frames[10, 157, 80].max() < 20
    assert close_to(frames[10, 80, 80], story.colours[0])
    for index, start in enumerate(clip_starts(story)):
        assert close_to(frames[2 * start, 80, 80], story.colours[index])


def test_fps_lower_than_the_clips(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "slow.mp4"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(fps=4))
    facts = video_facts(out)
    assert facts.fps == pytest.approx(4)
    assert facts.frames == result.frames == sum(f // 2 for f in story.frames)


def test_crossfade_shortens_by_the_dissolves(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "fade.mp4"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(crossfade=0.25))
    fade = 2  # 0.25 s at 8 fps
    expected_frames = sum(story.frames) - fade * (len(story.frames) - 1)
    facts = video_facts(out)
    assert facts.frames == result.frames == expected_frames
    assert abs(container_duration(out) - expected_frames / FPS) <= 1 / FPS
    frames = decode(out)
    middle = frames[story.frames[0] - fade, 32, 48].astype(int)
    first, second = np.array(story.colours[0]), np.array(story.colours[1])
    # a dissolve frame lies between the two colours, near neither
    assert not close_to(middle, story.colours[0], 30) and not close_to(middle, story.colours[1], 30)
    assert np.all(middle >= np.minimum(first, second) - 16) and np.all(middle <= np.maximum(first, second) + 16)


def test_title_and_end_cards(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "cards.mp4"
    options = ExportOptions(title="A day in town", title_duration=1.0, end_card="The end", end_card_duration=0.5)
    result = export_branch(story.project, story.leaf, out, options=options)
    expected = sum(story.frames) + 8 + 4
    facts = video_facts(out)
    assert facts.frames == result.frames == expected
    frames = decode(out)
    assert frames[0, 60, 4].max() < 60, "the card is dark"
    assert frames[0].max() > 200, "with white text"
    assert_turn_colours(frames, story, offset=8)
    assert frames[-1, 60, 4].max() < 60


def test_burned_captions_and_srt_sidecar(story: Fixture, tmp_path: Path) -> None:
    burned = export_branch(story.project, story.leaf, tmp_path / "burn.mp4",
                           options=ExportOptions(captions=CaptionMode.BURN, size=(320, 240)))
    assert not burned.used_stream_copy
    frames = decode(burned.path)
    band = frames[0, 200:236, :]
    assert not np.all(np.abs(band.astype(int) - story.colours[0]) < 30), "caption band drawn at the bottom"

    sidecar = export_branch(story.project, story.leaf, tmp_path / "side.mp4",
                            options=ExportOptions(captions=CaptionMode.SRT))
    assert sidecar.used_stream_copy, "an SRT sidecar doesn't need new pixels"
    assert sidecar.paths == (tmp_path / "side.mp4", tmp_path / "side.srt")
    assert "Qiqi gently waves 3 in the town, by day." in (tmp_path / "side.srt").read_text()


def test_webm_is_vp9(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "episode.webm"
    result = export_branch(story.project, story.leaf, out)
    assert result.format == ExportFormat.WEBM and not result.used_stream_copy
    facts = video_facts(out)
    assert (facts.codec, facts.width, facts.height) == ("vp9", *SIZE)
    assert facts.frames == sum(story.frames)
    assert abs(facts.duration - sum(story.frames) / FPS) <= 1 / FPS
    assert_turn_colours(decode(out), story)


def test_gif_reads_back(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "episode.gif"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(crossfade=0.125))
    assert out.read_bytes()[:6] in (b"GIF89a", b"GIF87a")
    facts = video_facts(out)
    assert (facts.codec, facts.width, facts.height) == ("gif", *SIZE)
    assert facts.frames == result.frames == sum(story.frames) - 2
    # GIF delays are whole centiseconds: 12.5 cs frames drift by at most half a centisecond each
    assert abs(facts.duration - result.duration) <= 0.005 * result.frames + 1 / FPS
    frames = decode(out)
    assert close_to(frames[0, 32, 48], story.colours[0], tolerance=24)
    assert close_to(frames[-1, 32, 48], story.colours[-1], tolerance=24)


def test_format_from_argument_overrides_suffix(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "episode.video"
    result = export_branch(story.project, story.leaf, out, fmt="webm")
    assert result.format == ExportFormat.WEBM
    assert video_facts(out).codec == "vp9"


def test_clips_of_different_sizes_are_letterboxed_not_copied(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=3, sizes=[(96, 64), (64, 64), (128, 64)])
    try:
        out = tmp_path / "mixed.mp4"
        result = export_branch(fixture.project, fixture.leaf, out)
        assert not result.used_stream_copy
        facts = video_facts(out)
        assert (facts.width, facts.height) == (96, 64)
        frames = decode(out)
        square = frames[fixture.frames[0]]
        assert square[32, 4].max() < 20, "pillarbox bars at the sides of the square clip"
        assert close_to(square[32, 48], fixture.colours[1])
        wide = frames[fixture.frames[0] + fixture.frames[1]]
        assert wide[3, 48].max() < 20, "letterbox bars above the wide clip"
        assert close_to(wide[32, 48], fixture.colours[2])
        assert_turn_colours(frames, fixture, centre_only=True)
    finally:
        fixture.project.close()


def test_clips_of_different_lengths(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=3, frames=[5, 9, 7])
    try:
        out = tmp_path / "lengths.mp4"
        result = export_branch(fixture.project, fixture.leaf, out)
        assert result.used_stream_copy
        assert video_facts(out).frames == 21
        assert abs(container_duration(out) - 21 / FPS) <= 1 / FPS
        assert_turn_colours(decode(out), fixture)
    finally:
        fixture.project.close()


def test_a_turns_duration_holds_or_trims_its_clip_in_the_video(story: Fixture, tmp_path: Path) -> None:
    first, _second, third = story.nodes
    story.project.apply(SetDuration(first, 2.0))   # 6 frames held to 16
    story.project.apply(SetDuration(third, 0.5))   # 6 frames trimmed to 4
    result = export_branch(story.project, story.leaf, tmp_path / "timed.mp4")
    assert not result.used_stream_copy
    frames = decode(result.path)
    assert len(frames) == result.frames == 16 + 6 + 4
    assert result.duration == pytest.approx(26 / FPS)
    middle = (frames.shape[1] // 2, frames.shape[2] // 2)
    expected = [story.colours[0]] * 16 + [story.colours[1]] * 6 + [story.colours[2]] * 4
    for index, colour in enumerate(expected):
        assert close_to(frames[index][middle], colour), f"frame {index}"


def test_burned_captions_change_with_each_dialogue_line(story: Fixture, tmp_path: Path) -> None:
    first = story.nodes[0]
    story.project.apply(SetDuration(first, 3.0))
    story.project.apply(AddDialogueLine(first, "Qiqi", "I'm late for my very first delivery in this town!"))
    story.project.apply(AddDialogueLine(first, "Mei", "Go!"))
    result = export_branch(story.project, story.leaf, tmp_path / "lines.mp4",
                           options=ExportOptions(captions=CaptionMode.BURN, size=(320, 240)))
    frames = decode(result.path)
    band = frames[:24, 200:236].astype(int)

    def change(a: int, b: int) -> float:
        return float(np.abs(band[a] - band[b]).mean())

    assert change(0, 23) > 5 * max(1.0, change(0, 10)), "the second line replaces the first, late in the turn"


def test_a_long_caption_takes_smaller_type_before_it_is_cut_and_a_cut_is_said(story: Fixture, tmp_path: Path) -> None:
    from studio.export.drawing import CAPTION_LINES, caption_layout, wrap_text

    size = (720, 480)
    words = "a caption that goes on and on across the frame"
    largest, *_ = caption_layout(size, "short")
    text = words
    while len(wrap_text(text, largest.width, size[0] * 0.92 - 2 * 8)) <= CAPTION_LINES:
        text += " and on"  # until the largest type needs a fourth line
    face, lines, cut = caption_layout(size, text)
    assert not cut and len(lines) <= CAPTION_LINES and face.size < largest.size, "smaller type, nothing cut"
    face, lines, cut = caption_layout(size, " ".join([words] * 12))
    assert cut and len(lines) == CAPTION_LINES and lines[-1].endswith("\u2026")

    story.project.apply(AddDialogueLine(story.nodes[1], "Qiqi", " ".join([words] * 12)))
    story.project.apply(SetDuration(story.nodes[1], 8.0))  # time for all of its subtitles
    result = export_branch(story.project, story.leaf, tmp_path / "cut.mp4",
                           options=ExportOptions(captions=CaptionMode.BURN, size=(160, 120)))
    assert any("turn 2's burned caption is too long for the frame: " in note for note in result.notes), result.notes
    calm = export_branch(story.project, story.leaf, tmp_path / "srt.mp4",
                         options=ExportOptions(captions=CaptionMode.SRT))
    assert not any("caption" in note for note in calm.notes)


@pytest.mark.parametrize("fps", [None, 30.0, 40.0, 50.0], ids=["clips-8", "30", "40", "50"])
def test_gif_frame_delays_add_up_to_its_duration(story: Fixture, tmp_path: Path, fps: float | None) -> None:
    """GIF delays are whole centiseconds: at 8 fps (12.5 cs a frame) or 30 fps they alternate,
    and the last frame's delay must close the sum on the reported duration."""
    out = tmp_path / "timed.gif"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(fps=fps))
    delays = gif_delays(out)
    assert len(delays) == result.frames == video_facts(out).frames
    assert min(delays) >= 2, "players slow a delay of 0 or 1 cs down to 10 cs"
    assert sum(delays) == round(result.duration * 100), delays


@pytest.mark.parametrize("fps", [50.5, 60.0, 100.0, 240.0])
def test_gif_faster_than_50_fps_is_refused(story: Fixture, tmp_path: Path, fps: float) -> None:
    out = tmp_path / "fast.gif"
    with pytest.raises(ExportError, match="too fast for a GIF") as refused:
        export_branch(story.project, story.leaf, out, options=ExportOptions(fps=fps))
    assert "50 fps or less" in refused.value.hint
    assert list(tmp_path.iterdir()) == [story.project.path]
    assert export_branch(story.project, story.leaf, tmp_path / "fast.mp4", options=ExportOptions(fps=fps)).frames


def test_gif_of_clips_faster_than_50_fps_needs_a_slower_rate(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=2, fps=60)
    try:
        with pytest.raises(ExportError, match="clips run at 60 fps, which is too fast for a GIF"):
            export_branch(fixture.project, fixture.leaf, tmp_path / "clips.gif")
        assert not (tmp_path / "clips.gif").exists()
        result = export_branch(fixture.project, fixture.leaf, tmp_path / "clips.gif", options=ExportOptions(fps=30))
        assert sum(gif_delays(result.path)) == round(result.duration * 100)
    finally:
        fixture.project.close()


def test_crf_forces_reencoding_and_is_checked_per_format(story: Fixture, tmp_path: Path) -> None:
    copied = export_branch(story.project, story.leaf, tmp_path / "copy.mp4")
    assert copied.used_stream_copy
    best = export_branch(story.project, story.leaf, tmp_path / "best.mp4", options=ExportOptions(crf=0))
    worst = export_branch(story.project, story.leaf, tmp_path / "worst.mp4", options=ExportOptions(crf=51))
    assert not best.used_stream_copy and not worst.used_stream_copy
    assert video_facts(best.path).codec == video_facts(worst.path).codec == "h264"
    assert best.path.stat().st_size > worst.path.stat().st_size, "the quality asked for is the one used"
    assert copied.path.read_bytes() != worst.path.read_bytes()
    vp9 = export_branch(story.project, story.leaf, tmp_path / "worst.webm", options=ExportOptions(crf=63))
    assert video_facts(vp9.path).codec == "vp9"
    refusals = [("a.mp4", 52, "outside H.264's 0..51"), ("b.mp4", 63, "outside H.264's 0..51"),
                ("c.webm", 64, "outside VP9's 0..63"), ("d.mp4", -1, "below 0")]
    refusals += [(f"e.{fmt}", 20, f"applies only to mp4 and webm videos, not to {fmt}")
                 for fmt in ("gif", "pdf", "png", "srt", "otio")]
    for name, crf, needle in refusals:
        with pytest.raises(ExportError, match=re.escape(needle)):
            export_branch(story.project, story.leaf, tmp_path / name, options=ExportOptions(crf=crf))
        assert not (tmp_path / name).exists()


def _read_back(path: Path, fmt: str) -> str:
    """What ``path`` holds, read by content alone (the name has no suffix to go by)."""
    head = path.read_bytes()[:8]
    if fmt in ("mp4", "webm", "gif"):
        return video_facts(path).codec
    if fmt == "pdf":
        return "pdf" if head.startswith(b"%PDF-") else repr(head)
    if fmt == "png":
        return "png" if head == b"\x89PNG\r\n\x1a\n" else repr(head)
    if fmt == "srt":
        return "srt" if path.read_text(encoding="utf-8").startswith("1\n00:00:00,000 --> ") else repr(head)
    timeline = otio.adapters.read_from_file(str(path), adapter_name="otio_json")
    return f"otio with {len(timeline.tracks[0])} clips"


@pytest.mark.parametrize("fmt,options,expected", [
    ("mp4", ExportOptions(), "h264"), ("mp4", ExportOptions(stream_copy=False), "h264"),
    ("webm", ExportOptions(), "vp9"), ("gif", ExportOptions(), "gif"), ("pdf", ExportOptions(), "pdf"),
    ("png", ExportOptions(), "png"), ("srt", ExportOptions(), "srt"), ("otio", ExportOptions(), "otio with 3 clips"),
], ids=["mp4-copy", "mp4-encoded", "webm", "gif", "pdf", "png", "srt", "otio"])
def test_every_format_writes_to_a_name_without_suffix(story: Fixture, tmp_path: Path, fmt: str,
                                                      options: ExportOptions, expected: str) -> None:
    out = tmp_path / "episode"
    result = export_branch(story.project, story.leaf, out, fmt=fmt, options=options)
    # a timeline's media go in a folder beside it (test_qa42_otio_timeline_travels_with_its_media)
    assert result.paths == ((out, tmp_path / "episode_media") if fmt == "otio" else (out,))
    assert _read_back(out, fmt) == expected


def test_a_card_too_long_for_its_lines_is_cut_and_the_cut_is_said(story: Fixture, tmp_path: Path) -> None:
    """A title or end card holds four lines; a longer text ends in an ellipsis, as a burned
    caption does, and the result says so as it does for captions."""
    from studio.export.drawing import CARD_LINES, card_layout

    size = (160, 120)
    long = " ".join(["a title that goes on and on"] * 12)
    _face, lines, cut = card_layout(size, long)
    assert cut and len(lines) == CARD_LINES and lines[-1].endswith("\u2026")
    _face, lines, cut = card_layout(size, "A day in town")
    assert not cut and lines == ("A day in town",)
    _face, _lines, cut = card_layout(size, "The end\u2026")
    assert not cut, "an ellipsis the user typed is no cut"

    result = export_branch(story.project, story.leaf, tmp_path / "long.mp4",
                           options=ExportOptions(title=long, end_card="The end", size=size))
    notes = [note for note in result.notes if "card" in note]
    assert notes == ["the title card's text was too long for its four lines and ends in '\u2026' "
                     "(a shorter --title shows all of it)"], result.notes
    both = export_branch(story.project, story.leaf, tmp_path / "both.gif",
                         options=ExportOptions(title=long, end_card=long, size=size))
    assert [note for note in both.notes if "card" in note] == [
        "the title card's text was too long for its four lines and ends in '\u2026' "
        "(a shorter --title shows all of it)",
        "the end card's text was too long for its four lines and ends in '\u2026' "
        "(a shorter --end-card shows all of it)"], both.notes
    calm = export_branch(story.project, story.leaf, tmp_path / "calm.mp4",
                         options=ExportOptions(title="A day in town", end_card="The end", size=size))
    assert not any("card" in note for note in calm.notes), calm.notes
    # subtitle and timeline files keep the card's text whole: nothing is cut, nothing said
    kept = export_branch(story.project, story.leaf, tmp_path / "kept.otio", options=ExportOptions(title=long))
    assert not any("card" in note for note in kept.notes), kept.notes
