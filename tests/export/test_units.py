"""Small pieces: the timeline plan, ffmpeg report parsing, text wrapping, format inference."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from studio.export import ExportError, ExportFormat, infer_format
from studio.export.compose import blend, resample
from studio.export.drawing import wrap_text
from studio.export.subtitles import srt_timestamp
from studio.export.timeline import output_frames, plan_timeline
from studio.storage.ffmpeg import MediaError, exact_fps, parse_stream_report


def test_timeline_without_crossfade() -> None:
    timeline = plan_timeline([6, 6, 6], Fraction(8))
    assert [s.start for s in timeline.turns] == [0, 6, 12]
    assert [(s.shown_from, s.shown_to) for s in timeline.turns] == [(0, 6), (6, 12), (12, 18)]
    assert timeline.total_frames == 18 and timeline.duration == pytest.approx(2.25)


def test_timeline_with_crossfade_and_cards() -> None:
    timeline = plan_timeline([6, 6, 6], Fraction(8), crossfade=0.375, title_seconds=1, end_seconds=0.5)
    assert timeline.crossfade == 3
    assert [s.start for s in timeline.turns] == [8, 11, 14]
    # cut points one frame into each 3-frame dissolve
    assert [(s.shown_from, s.shown_to) for s in timeline.turns] == [(8, 12), (12, 15), (15, 20)]
    assert timeline.total_frames == 8 + 18 - 6 + 4
    assert timeline.turn_at(7) is None and timeline.turn_at(12) == 1


def test_timeline_refuses_a_dissolve_longer_than_the_clips() -> None:
    with pytest.raises(ExportError, match="too long"):
        plan_timeline([6, 4, 6], Fraction(8), crossfade=0.375)
    plan_timeline([6, 4, 6], Fraction(8), crossfade=0.25)
    plan_timeline([3, 3], Fraction(8), crossfade=0.375)  # two clips: one dissolve each
    with pytest.raises(ExportError) as refused:  # the hint gives a length that works
        plan_timeline([6, 4, 6], Fraction(8), crossfade=0.375)
    assert "turn 2 lasts 0.50 s (4 frames at 8 fps)" in refused.value.message
    assert refused.value.hint == "Use at most 0.25 s."
    plan_timeline([6, 4, 6], Fraction(8), crossfade=0.25)
    with pytest.raises(ExportError) as none_fits:  # a turn of one frame has room for no dissolve at all
        plan_timeline([6, 1, 6], Fraction(8), crossfade=0.01)
    assert none_fits.value.message == "No crossfade fits: turn 2 lasts 0.12 s (1 frame at 8 fps)."


def test_a_card_shorter_than_a_frame_still_shows_for_one() -> None:
    timeline = plan_timeline([6, 6], Fraction(8), title_seconds=0.01, end_seconds=0.05)
    assert (timeline.title_frames, timeline.end_frames) == (1, 1)
    assert plan_timeline([6], Fraction(8)).title_frames == 0


def test_output_frames_and_resample() -> None:
    assert output_frames(17, Fraction(8), Fraction(24)) == 51
    assert output_frames(17, Fraction(8), Fraction(4)) == 8  # 8.5 rounds to even
    frames = iter([np.full((1, 1, 3), i, np.uint8) for i in range(4)])
    picked = [int(f[0, 0, 0]) for f in resample(frames, Fraction(4), Fraction(8), 8)]
    assert picked == [0, 0, 1, 1, 2, 2, 3, 3]
    short = iter([np.full((1, 1, 3), i, np.uint8) for i in range(2)])
    assert [int(f[0, 0, 0]) for f in resample(short, Fraction(8), Fraction(8), 4)] == [0, 1, 1, 1]


def test_blend() -> None:
    a, b = np.zeros((1, 1, 3), np.uint8), np.full((1, 1, 3), 200, np.uint8)
    assert blend(a, b, 0.5)[0, 0, 0] == 100
    assert blend(a, b, 1.0)[0, 0, 0] == 200


def test_parse_stream_report() -> None:
    report = (
        "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'x.mp4':\n"
        "  Stream #0:0[0x1](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(tv, bt709, progressive), "
        "720x480 [SAR 1:1 DAR 3:2], 4 kb/s, 29.97 fps, 29.97 tbr, 30k tbn (default)\n"
        "Stream mapping:\n  Stream #0:0 -> #0:0 (copy)\n"
    )
    info = parse_stream_report(report, "frame=10\nprogress=continue\nframe=17\nprogress=end\n", Path("x.mp4"))
    assert (info.codec, info.profile, info.pix_fmt) == ("h264", "High", "yuv420p")
    assert (info.size, info.frames) == ((720, 480), 17)
    assert info.fps == Fraction(30000, 1001) and info.time_base == "30k"
    with pytest.raises(MediaError, match="no video"):
        parse_stream_report("Stream #0:0: Audio: aac\n", "frame=0", Path("a.m4a"))
    assert exact_fps(8.0) == 8 and exact_fps(23.976) == Fraction(24000, 1001) and exact_fps(12.5) == Fraction(25, 2)


def test_wrap_text() -> None:
    lines = wrap_text("one two three four five", len, 9)
    assert lines == ["one two", "three", "four five"]
    assert wrap_text("abcdefghijkl", len, 5) == ["abcde", "fghij", "kl"]
    cut = wrap_text("one two three four five", len, 9, max_lines=2)
    assert len(cut) == 2 and cut[-1].endswith("…")


def test_japanese_lines_keep_the_line_breaking_rules() -> None:
    """No line starts with closing punctuation, a small kana or the long-vowel mark, and none
    ends with an opening bracket: the character before goes down with it."""
    from studio.export.drawing import NO_LINE_END, NO_LINE_START

    for text in ("あいうえおかきくけ。こさしすせそ", "あいうえおかきくけ」。こさしすせそ",
                 "あいうえおかき「くけこ」さし", "パンやさんのキキーー、スノナイト", "ああ、疲れた。" * 12,
                 "「こんにちは」と彼は言った。" * 9):
        lines = wrap_text(text, len, 9)
        assert "".join(lines) == text
        assert all(len(line) <= 9 for line in lines)
        assert not any(line[0] in NO_LINE_START for line in lines[1:]), lines
        assert not any(line[-1] in NO_LINE_END for line in lines[:-1]), lines
    assert wrap_text("あいうえおかきくけ。こ", len, 9) == ["あいうえおかきく", "け。こ"]
    assert wrap_text("。。。。。。。。。。。", len, 5) == ["。。。。。", "。。。。。", "。"]  # nowhere else to break


def test_a_long_run_without_spaces_wraps_in_few_measures() -> None:
    """Japanese has no spaces: a narration is one "word" thousands of characters long. Each
    line costs a few measures of about a line's length, not one measure per character."""
    import random

    calls: list[int] = []

    def width(text: str) -> float:  # wide and narrow characters, as a real font has
        calls.append(len(text))
        return sum(2.0 if ord(c) > 0x3000 else 1.0 for c in text)

    run = "キキは朝のパン屋へ走っていった。" * 250  # 4,000 characters, no space
    lines = wrap_text(run, width, 60)
    assert "".join(lines) == run and all(width(line) <= 60 for line in lines)
    assert all(width(line) > 54 for line in lines[:-1]), "each line is filled (but for the line-breaking rules)"
    calls.clear()
    wrap_text(run, width, 60)
    assert len(calls) < 20 * len(lines) and sum(calls) < 40 * len(run), (len(calls), sum(calls))
    calls.clear()
    assert len(wrap_text(run * 25, width, 60, max_lines=3)) == 3  # a 100,000-character title card
    assert sum(calls) < len(run) * 25 + 20_000, "once whole, then only the first lines"

    def reference(word: str, limit: int) -> list[str]:  # one character at a time
        out: list[str] = []
        while len(word) > limit:
            out.append(word[:limit])
            word = word[limit:]
        return [*out, word]

    generator = random.Random(4)
    for _ in range(200):
        word = "".join(generator.choice("abcdefgh") for _ in range(generator.randint(1, 60)))
        limit = generator.randint(1, 12)
        assert wrap_text(word, len, limit) == reference(word, limit), (word, limit)


def test_srt_timestamp() -> None:
    assert srt_timestamp(0, Fraction(8)) == "00:00:00,000"
    assert srt_timestamp(8 * 3725 + 1, Fraction(8)) == "01:02:05,125"


def test_infer_format() -> None:
    assert infer_format(Path("a.MP4")) == ExportFormat.MP4
    assert infer_format(Path("a.bin"), "gif") == ExportFormat.GIF
    with pytest.raises(ExportError):
        infer_format(Path("a"))
    assert infer_format(Path("a.mp4"), "MP4") == ExportFormat.MP4
    with pytest.raises(ExportError, match="says mp4 but the format asked for is srt"):
        infer_format(Path("a.mp4"), "srt")


def test_srt_wraps_japanese_by_display_width_and_keeps_latin_words_whole() -> None:
    import textwrap

    from studio.export.cues import Cue, CueKind
    from studio.export.subtitles import LINE_COLUMNS, SRT_LINE, display_width, srt_cue_text, wrap_columns

    japanese = ("桜の木の下で、キキは空を見上げた。「今日はいい天気だね！」と彼女は言った。"
                "そして、ゆっくりと丘を登り始めた。")
    lines = srt_cue_text(Cue(CueKind.DIALOGUE, japanese)).split("\n")
    assert len(lines) > 1 and "".join(lines) == japanese
    columns = LINE_COLUMNS["ja"]  # 13 full-width characters a Japanese line
    assert columns == 26 and all(display_width(line) <= columns for line in lines)
    assert max(display_width(line) for line in lines) >= columns - 2  # filled, not cut short
    assert len(lines) == len(wrap_columns(japanese, columns))  # as few lines as a full wrap takes
    assert not any(line[0] in "。、」）！？" for line in lines)
    narration = srt_cue_text(Cue(CueKind.NARRATION, japanese))
    assert narration.startswith("<i>") and narration.endswith("</i>") and "\n" in narration
    # closing punctuation goes up with the character before it
    assert wrap_columns("あ" * 20 + "。」", 42) == ["あ" * 19, "あ。」"]
    # mixed: Latin words stay whole, breaks fall at spaces or next to Japanese
    mixed = "Qiqiは東京タワーの前でphotographを撮った。Then she said: 今日は楽しかったね、本当にありがとう！"
    lines = wrap_columns(mixed)
    assert all(display_width(line) <= SRT_LINE for line in lines)
    assert len(lines) > 1 and "".join(lines).replace(" ", "") == mixed.replace(" ", "")
    for word in ("Qiqi", "photograph", "Then", "she", "said:"):  # each whole, on one line
        assert sum(word in line for line in lines) == 1
    # Latin text wraps as before, a word longer than a line on a line of its own
    latin = "Qiqi climbs the long hill behind the bakery and waves at the " + "x" * 50 + " train as it goes by"
    assert wrap_columns(latin) == textwrap.wrap(latin, SRT_LINE, break_long_words=False, break_on_hyphens=False)
    assert display_width("ｶﾞ") == 2 and display_width("か\u3099") == 2 and display_width("ＡＢ") == 4
