"""A subtitle that needs more than one line has lines of about one width, broken where a
reader minds it least, in every language; a subtitle on one line is as it was.

Before, lines were filled greedily: the 14-character caption 美咲が夜の港でゆっくり歩く。 at 13
characters a Japanese line became 美咲が夜の港でゆっくり歩 / く。, cutting the word 歩く and
leaving two characters alone on the second line; English left a lone ``Qiqi!`` below a full line.
The export tests read back real SRT files."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import export_branch
from studio.export import subtitles as subtitles_module
from studio.export.drawing import NO_LINE_START
from studio.export.subtitles import (
    BALANCED_MOST_LINES,
    balanced_lines,
    display_width,
    line_columns,
    wrap_columns,
)

from .helpers import Fixture, parse_srt

WALK = "美咲が夜の港でゆっくり歩く。"

TEXTS = [
    WALK,
    "桜の木の下で、キキは空を見上げた。「今日はいい天気だね！」と彼女は言った。",
    "キャラクター：美咲；動作：手を振る；背景：公園；時間帯：夜",
    "美咲: 今日はとても良い天気ですね。公園で一緒に写真を撮りましょう。",
    "小明在公园里跑步，然后他看到了一只很大的狗。",
    "晚上，小明在公园里慢慢地跑步，看见了他的朋友。",
    "민수는 공원에서 아주 천천히 달리다가 오래된 친구를 만났다.",
    "Mei: Good luck on your first delivery, Qiqi!",
    "Qiqi climbs the long hill behind the bakery and waves at the train as it goes by.",
    "Well, I think that we should probably go home before the rain starts.",
    "Qiqiは東京タワーの前でphotographを撮った。Then she said: 今日は楽しかったね！",
]


def _columns(text: str) -> int:
    return line_columns(text)


def test_a_japanese_caption_of_fourteen_characters_breaks_between_phrases() -> None:
    assert wrap_columns(WALK, 26) == ["美咲が夜の港でゆっくり歩", "く。"]  # greedy: the word cut, a widow
    assert balanced_lines(WALK, 26) == ["美咲が夜の港で", "ゆっくり歩く。"]


def test_a_break_after_punctuation_is_preferred_near_the_middle() -> None:
    assert balanced_lines("小明在公园里跑步，然后他看到了一只很大的狗。", 32) == [
        "小明在公园里跑步，", "然后他看到了一只很大的狗。"]
    assert balanced_lines("キャラクター：美咲；動作：手を振る；背景：公園；時間帯：夜", 26) == [
        "キャラクター：美咲；", "動作：手を振る；", "背景：公園；時間帯：夜"]


def test_a_two_line_english_cue_has_no_lone_word() -> None:
    greedy = wrap_columns("Mei: Good luck on your first delivery, Qiqi!", 42)
    assert greedy == ["Mei: Good luck on your first delivery,", "Qiqi!"]
    assert balanced_lines("Mei: Good luck on your first delivery, Qiqi!", 42) == [
        "Mei: Good luck on your", "first delivery, Qiqi!"]
    assert balanced_lines("Qiqi climbs the long hill behind the bakery and waves at the train as it goes by.") == [
        "Qiqi climbs the long hill", "behind the bakery and waves", "at the train as it goes by."]


@pytest.mark.parametrize("text", TEXTS)
def test_balanced_lines_keep_the_text_the_line_count_and_the_rules(text: str) -> None:
    width = _columns(text)
    greedy = wrap_columns(text, width, break_long_words=True)
    lines = balanced_lines(text, width)
    assert len(lines) == len(greedy), (greedy, lines)  # never a line more
    assert "".join(lines).replace(" ", "") == text.replace(" ", ""), "nothing lost, nothing added"
    assert all(line and line == line.strip() for line in lines), lines
    assert all(display_width(line) <= width for line in lines), lines
    assert not any(line[0] in NO_LINE_START for line in lines[1:]), lines
    assert max(map(display_width, lines)) <= max(map(display_width, greedy))
    if len(lines) > 1:  # balanced: the narrowest line is not far below the widest
        assert max(map(display_width, lines)) - min(map(display_width, lines)) < width // 2, lines


@pytest.mark.parametrize("text", ["Hello there.", "Qiqi: こんにちは。", "美咲は公園で手を振る。", "小明在公园跑步。",
                                  "민수는 공원에서 달리다.", "x" * 42])
def test_a_text_on_one_line_is_left_as_it_is(text: str) -> None:
    assert balanced_lines(text, _columns(text)) == [text]


def test_a_word_wider_than_a_line_or_a_very_long_text_is_wrapped_as_before() -> None:
    long_word = "Look: " + "x" * 50 + " there"
    assert balanced_lines(long_word) == wrap_columns(long_word, break_long_words=True)
    many = " ".join(["Qiqi waves at the train."] * 20)
    greedy = wrap_columns(many, break_long_words=True)
    assert len(greedy) > BALANCED_MOST_LINES
    assert balanced_lines(many) == greedy


def test_an_exported_japanese_subtitle_breaks_between_phrases(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(SetNarration(story.nodes[0], WALK))
    story.project.apply(SetDuration(story.nodes[0], 5.0))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "ja.srt").path.read_text(
        encoding="utf-8"))
    assert entries[0][2] == "<i>美咲が夜の港で\nゆっくり歩く。</i>"


def _export_with(story: Fixture, path: Path, monkeypatch: pytest.MonkeyPatch, greedy: bool) -> bytes:
    with monkeypatch.context() as patch:
        if greedy:  # the export as it was: lines filled one after another
            patch.setattr(subtitles_module, "balanced_lines",
                          lambda text, width: wrap_columns(text, width, break_long_words=True))
        return export_branch(story.project, story.leaf, path).path.read_bytes()


def test_an_english_export_of_one_line_cues_is_byte_identical(story: Fixture, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    story.project.apply(AddDialogueLine(story.nodes[0], "Mei", "Good luck, Qiqi!"))
    story.project.apply(SetNarration(story.nodes[1], "The town wakes up."))
    balanced = _export_with(story, tmp_path / "balanced.srt", monkeypatch, greedy=False)
    before = _export_with(story, tmp_path / "greedy.srt", monkeypatch, greedy=True)
    assert balanced == before
    assert all("\n" not in text for _, _, text in parse_srt(balanced.decode("utf-8")))  # all one line


def test_an_english_export_of_a_two_line_cue_is_balanced(story: Fixture, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    story.project.apply(AddDialogueLine(story.nodes[0], "Mei", "Good luck on your first delivery, Qiqi!"))
    story.project.apply(SetDuration(story.nodes[0], 4.0))
    balanced = parse_srt(_export_with(story, tmp_path / "balanced.srt", monkeypatch, greedy=False).decode("utf-8"))
    before = parse_srt(_export_with(story, tmp_path / "greedy.srt", monkeypatch, greedy=True).decode("utf-8"))
    assert before[0][2] == "Mei: Good luck on your first delivery,\nQiqi!"
    assert balanced[0][2] == "Mei: Good luck on your\nfirst delivery, Qiqi!"
    assert [entry[:2] for entry in balanced] == [entry[:2] for entry in before]  # the same times


@pytest.mark.parametrize(("text", "width"), [
    ("민수는 밤에 공원에서 달린다. / 민수가 해변에서 춤춘다.", 32),
    ("美咲が夜の港で走る。 / 美咲は公園で手を振る。", 26),
])
def test_the_slash_joining_merged_cues_ends_a_line_never_opens_one(text: str, width: int) -> None:
    """Merged cues are joined with " / "; a line that opened with it ("/ 민수가 …") read as a
    fraction, where the next cue ended its line with it."""
    lines = balanced_lines(text, width)
    assert len(lines) == 2 and " ".join(lines) == text
    assert not any(line.startswith("/") for line in lines)
    assert lines[0].endswith(" /")
