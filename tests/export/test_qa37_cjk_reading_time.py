"""Japanese captions were timed as if read at English speed (17 characters a second), so a
long Japanese line counted as read in a fraction of the time it takes (about 4 characters a
second) and lent its time to a short caption beside it, and a turn's Japanese line got a
smaller share of the turn than an English line of fewer words. Both are read back from
real SRT exports."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import export_branch
from studio.export.reading import reading_seconds

from .helpers import Fixture, build, parse_srt

JAPANESE = "今日はとても良い天気ですね。公園で一緒に写真を撮りましょう。"  # 30 characters


@pytest.fixture
def two_turns(tmp_path: Path) -> Iterator[Fixture]:
    fixture = build(tmp_path, turns=2)
    yield fixture
    fixture.project.close()


def test_a_long_japanese_caption_keeps_the_time_it_needs(two_turns: Fixture, tmp_path: Path) -> None:
    project, (first, last) = two_turns.project, two_turns.nodes
    project.apply(SetDuration(first, 4.0))
    project.apply(SetDuration(last, 0.5))
    project.apply(AddDialogueLine(first, "美咲", JAPANESE))
    project.apply(AddDialogueLine(last, "美咲", "はい。"))
    entries = parse_srt(export_branch(project, last, tmp_path / "ja.srt").path.read_text(encoding="utf-8"))
    # 30 characters are more than two Japanese lines of 13: two subtitles, a sentence each
    assert [text.replace("\n", "") for _, _, text in entries] == [
        "美咲: 今日はとても良い天気ですね。", "公園で一緒に写真を撮りましょう。", "美咲: はい。"]
    (start, middle, _), (resumed, end, _), (after, stop, _) = entries
    # 30 characters at 4 a second take 7.5 s: the turn's 4 s are all needed, and lent only what
    # the short turn after it lacks of the minimum (5/6 s, to the frame: 0.875 s)
    assert (start, middle, end) == (0.0, resumed, pytest.approx(3.625, abs=1e-3))
    assert 0.0 < middle < end
    assert (after, stop) == (pytest.approx(3.625, abs=1e-3), pytest.approx(4.5, abs=1e-3))


def test_an_english_caption_with_time_to_spare_still_lends_it(two_turns: Fixture, tmp_path: Path) -> None:
    project, (first, last) = two_turns.project, two_turns.nodes
    project.apply(SetDuration(first, 4.0))
    project.apply(SetDuration(last, 0.5))
    project.apply(AddDialogueLine(first, "Misaki", "What a lovely day it is today."))
    project.apply(AddDialogueLine(last, "Misaki", "Yes."))
    entries = parse_srt(export_branch(project, last, tmp_path / "en.srt").path.read_text(encoding="utf-8"))
    (_, end, _), (after, stop, _) = entries
    assert end == after < 4.0 and stop == pytest.approx(4.5, abs=1e-3)
    assert stop - after >= 5 / 6 - 1e-3


def test_a_japanese_line_gets_its_share_of_a_turn_beside_an_english_one(two_turns: Fixture, tmp_path: Path) -> None:
    project, (first, last) = two_turns.project, two_turns.nodes
    project.apply(SetDuration(first, 6.0))
    project.apply(SetNarration(first, "夜、美咲は公園で手を振る。"))
    project.apply(AddDialogueLine(first, "Qiqi", "Hello there, how are you doing today?"))
    entries = parse_srt(export_branch(project, last, tmp_path / "mixed.srt").path.read_text(encoding="utf-8"))
    (start, end, narration), (after, stop, dialogue) = entries[:2]
    assert narration == "<i>夜、美咲は公園で手を振る。</i>" and dialogue.startswith("Qiqi: Hello")
    # 13 Japanese characters take 3.25 s to read, the 43-character English line 2.5 s
    assert end - start > stop - after


def test_the_reading_rule() -> None:
    assert reading_seconds("Qiqi waves.") == Fraction(11, 17)  # English as before: every code point
    assert reading_seconds("こんにちは。") == Fraction(6, 4)
    assert reading_seconds("みさき: iPhone") == Fraction(3 + 7 * Fraction(1, 2), 4)  # half-width counts half
    assert reading_seconds("今天天气很好。") == Fraction(7, 7)  # Chinese
    assert reading_seconds("안녕하세요 친구") == Fraction(7, 12)  # Korean, spaces not counted


def test_kanji_cut_from_a_japanese_line_reads_as_japanese() -> None:
    assert reading_seconds("公園散歩", context="美咲は公園散歩をした。") == Fraction(4, 4)
    assert reading_seconds("公園散歩") == Fraction(4, 7)  # alone: Chinese
    assert reading_seconds("Hello", context="こんにちは") == Fraction(5, 17)  # Latin stays Latin
