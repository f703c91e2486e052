"""A Japanese or Chinese run after a Latin word fills the rest of its line (QA: the burned
caption ``Qiqi: こんにちは、世界！…`` left ``Qiqi:`` alone on its first line and started the
Japanese on the next, a line more than the SRT's wrap of the same cue, so a caption that fits
three lines was drawn smaller or cut with "…"; sheets wrapped mixed narration the same way)."""

from __future__ import annotations

from studio.export.cues import Cue, CueKind
from studio.export.drawing import caption_layout, wrap_text
from studio.export.subtitles import srt_cue_text

JAPANESE = "こんにちは、世界！これはとても長い日本語の台詞です。改行なしで続きます。"


def test_japanese_after_a_latin_word_fills_the_line() -> None:
    lines = wrap_text(f"Qiqi: {JAPANESE}", len, 20)
    assert lines[0].startswith("Qiqi: こ") and len(lines[0]) == 20
    assert "".join(lines) == f"Qiqi: {JAPANESE}"  # broken between Japanese characters: nothing lost
    assert len(lines) == 3


def test_a_japanese_word_after_a_japanese_word_fills_the_line() -> None:
    assert wrap_text("今日は 晴れ。明日は雨かもしれないけれど、それでもいいです。", len, 12) == [
        "今日は 晴れ。明日は雨か", "もしれないけれど、それで", "もいいです。"]


def test_the_line_breaking_rules_still_hold() -> None:
    # closing punctuation never starts a line, an opening bracket never ends one
    assert wrap_text("Hi 。。。。", len, 4) == ["Hi", "。。。。"]
    assert wrap_text("Hi 「こんにちは」", len, 5) == ["Hi 「こ", "んにちは」"]
    assert wrap_text("Hi 「こんにちは」", len, 4) == ["Hi", "「こんに", "ちは」"]
    assert wrap_text("Hi こ。ん", len, 4) == ["Hi", "こ。ん"]


def test_a_long_latin_word_still_starts_its_own_line() -> None:
    assert wrap_text("Qiqi: supercalifragilisticexpialidocious", len, 20) == [
        "Qiqi:", "supercalifragilistic", "expialidocious"]


def test_burned_caption_breaks_as_the_srt_does() -> None:
    text = f"Qiqi: {JAPANESE}"
    _, lines, cut = caption_layout((640, 480), text)
    assert not cut
    assert lines[0].startswith("Qiqi: こんにちは"), lines
    srt = srt_cue_text(Cue(CueKind.DIALOGUE, JAPANESE, "Qiqi")).splitlines()
    assert srt[0].startswith("Qiqi: こんにちは")
