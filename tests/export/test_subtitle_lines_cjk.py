"""An SRT line is as long as its language's subtitles are: 13 full-width characters in
Japanese, 16 in Chinese (Simplified and Traditional) and Korean, 42 columns in English and
other languages written with spaces; a mixed line follows its main language. Japanese used
to fill 42 columns (21 characters) a line. Read back from real SRT exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import export_branch
from studio.export.cues import Cue, CueKind
from studio.export.reading import caption_language, reading_seconds
from studio.export.subtitles import display_width, line_columns, srt_cue_text, srt_pieces

from .helpers import Fixture, parse_srt

JAPANESE = ("夜、美咲は公園で手を振る。「ちょっと待って！」と彼女は言った。２０２４年のiPhoneで写真を撮った〜。"
            "それから12345678番のバスに乗って、ゆっくりと家に帰りました。")
CHINESE = "今天天气很好，我们一起去公园散步吧。然后再去看电影，好不好？晚上我们还要一起吃饭，你想吃什么？"
TRADITIONAL = "今天天氣很好，我們一起去公園散步吧。然後再去看電影，好不好？晚上我們還要一起吃飯，你想吃什麼？"
KOREAN = ("오늘은 날씨가 정말 좋네요. 공원에서 같이 사진을 찍어요. 친구들이 모두 기다리고 있어요. "
          "저녁에는 같이 밥을 먹어요.")
# written out here, not taken from the code under test: JIS X 4051's strict set, in part
NEVER_FIRST = "、。，．！？）」』】〜ー・…ぁぃぅぇぉっゃゅょァィゥェォッャュョ"
NEVER_LAST = "（「『【“"


def _export(story: Fixture, tmp_path: Path, narration: str = "", speaker: str = "", line: str = "",
            seconds: float = 60.0) -> list[list[str]]:
    """The first turn with ``narration`` and a line, exported as SRT and read back: each
    cue's lines (narration's italics taken off)."""
    first = story.nodes[0]
    story.project.apply(SetDuration(first, seconds))
    if narration:
        story.project.apply(SetNarration(first, narration))
    if line:
        story.project.apply(AddDialogueLine(first, speaker, line))
    out = export_branch(story.project, story.leaf, tmp_path / "episode.srt").path
    entries = parse_srt(out.read_text(encoding="utf-8"))
    return [body.removeprefix("<i>").removesuffix("</i>").split("\n") for start, _, body in entries
            if start < seconds - 1e-6]


def test_each_language_has_its_line_length() -> None:
    assert line_columns(JAPANESE) == 26  # 13 full-width characters
    assert line_columns(CHINESE) == line_columns(TRADITIONAL) == 32  # 16
    assert line_columns(KOREAN) == 32
    assert line_columns("Qiqi climbs the long hill behind the bakery.") == 42
    assert line_columns("Привет, как дела?") == 42
    # a mixed line follows its main language
    assert line_columns("Qiqi: こんにちは、今日はいい天気ですね。") == 26
    assert line_columns("Qiqiは東京タワーの前でphotographを撮った。") == 26
    assert line_columns("Qiqi meets 美咲 at the station and they walk home together.") == 42
    # Han characters alone: their context's language, Chinese without one
    assert line_columns("東京駅", "東京駅で会いましょう") == 26
    assert line_columns("東京駅") == 32


def test_reading_speed_follows_the_same_classifier() -> None:
    assert caption_language("Qiqi: こんにちは") == "ja"
    assert caption_language("Qiqi meets 美咲 at the station and they walk home together.") is None
    # English with a Japanese name is read at English speed: every character at 17 a second
    english = "Qiqi meets 美咲 at the station."
    assert reading_seconds(english) == pytest.approx(len(english) / 17)
    assert reading_seconds("こんにちは") == pytest.approx(5 / 4)


def _assert_breaking_rules(lines: list[str], text: str, keep_whole: tuple[str, ...]) -> None:
    assert "".join(lines) == text, lines
    assert not any(line[0] in NEVER_FIRST for line in lines[1:]), lines
    assert not any(line[-1] in NEVER_LAST for line in lines[:-1]), lines
    ends, at = set(), 0
    for line in lines[:-1]:
        at += len(line)
        ends.add(at)
    for word in keep_whole:
        found = text.index(word)
        assert not ends & set(range(found + 1, found + len(word))), (word, lines)


def test_a_japanese_srt_keeps_13_characters_a_line(story: Fixture, tmp_path: Path) -> None:
    cues = _export(story, tmp_path, narration=JAPANESE)
    lines = [line for cue in cues for line in cue]
    assert len(cues) > 1 and all(len(cue) <= 2 for cue in cues)
    assert all(display_width(line) <= 26 for line in lines), lines
    assert max(display_width(line) for line in lines) >= 24, "lines are filled, not cut short"
    assert sum(display_width(line) > 20 for line in lines) >= len(lines) // 2
    _assert_breaking_rules(lines, JAPANESE, ("iPhone", "12345678", "２０２４"))


def test_a_japanese_line_with_an_english_name_is_japanese(story: Fixture, tmp_path: Path) -> None:
    line = "今日はとても良い天気ですね。公園で一緒に写真を撮りましょう。"
    cues = _export(story, tmp_path, speaker="Alexander", line=line)
    lines = [text for cue in cues for text in cue]
    assert "".join(lines) == f"Alexander: {line}"
    assert lines[0].startswith("Alexander: ")
    assert all(display_width(text) <= 26 for text in lines), lines
    assert all(len(cue) <= 2 for cue in cues)


@pytest.mark.parametrize("text", [CHINESE, TRADITIONAL])
def test_a_chinese_srt_keeps_16_characters_a_line(story: Fixture, tmp_path: Path, text: str) -> None:
    cues = _export(story, tmp_path, narration=text)
    lines = [line for cue in cues for line in cue]
    assert "".join(lines) == text
    assert all(len(cue) <= 2 for cue in cues)
    assert all(display_width(line) <= 32 for line in lines), lines
    assert any(display_width(line) > 26 for line in lines), "longer than a Japanese line"
    assert not any(line[0] in "，。？！" for line in lines[1:])


def test_a_korean_srt_keeps_16_characters_a_line_and_breaks_between_words(story: Fixture, tmp_path: Path) -> None:
    cues = _export(story, tmp_path, narration=KOREAN)
    lines = [line for cue in cues for line in cue]
    assert all(len(cue) <= 2 for cue in cues)
    assert all(display_width(line) <= 32 for line in lines), lines
    assert [word for line in lines for word in line.split(" ")] == KOREAN.split(" "), "never inside a word"


def test_an_english_srt_still_fills_42_columns(story: Fixture, tmp_path: Path) -> None:
    import textwrap

    narration = ("Qiqi climbs the long hill behind the bakery, waving at the morning train as it goes by, "
                 "and meets 美咲 at the top of the hill.")
    cues = _export(story, tmp_path, narration=narration)
    assert " ".join(line for cue in cues for line in cue) == narration
    for cue in cues:  # as many lines as English always had, of at most 42 columns, balanced
        old = textwrap.wrap(" ".join(cue), 42, break_long_words=False, break_on_hyphens=False)
        assert len(cue) == len(old) and all(display_width(line) <= 42 for line in cue)
        assert max(display_width(line) for line in cue) <= max(display_width(line) for line in old)
    named = next(line for cue in cues for line in cue if "美咲" in line)
    assert display_width(named) > 32, "an English line with a Japanese name is not held to a Chinese line"


def test_a_han_piece_of_a_japanese_cue_wraps_as_japanese() -> None:
    """A subtitle cut from a Japanese line may hold no kana; it is wrapped as the line it came
    from, not as Chinese (16 a line)."""
    kanji = "東京都千代田区丸の内一丁目九番一号東京駅八重洲中央口改札前広場集合"  # has の: Japanese
    pieces = srt_pieces(Cue(CueKind.NARRATION, kanji))
    assert len(pieces) > 1
    for piece in pieces:
        lines = srt_cue_text(piece, kanji).removeprefix("<i>").removesuffix("</i>").split("\n")
        assert len(lines) <= 2 and all(display_width(line) <= 26 for line in lines), lines
    kanji_only = "東京都千代田区丸内一丁目九番一号"
    shown = srt_cue_text(Cue(CueKind.DIALOGUE, kanji_only), f"美咲: {kanji_only}に来てね").split("\n")
    # Japanese: 13 a line, so two lines (as Chinese, 16 a line, it is one: below)
    assert len(shown) == 2 and all(display_width(line) <= 26 for line in shown)
    assert srt_cue_text(Cue(CueKind.DIALOGUE, kanji_only)) == kanji_only  # Chinese: 16 a line


def test_a_clause_end_counts_against_a_japanese_line() -> None:
    """A cue is cut at a clause end that fills at least half a line: half a Japanese line
    (10 characters of 13 do), not half of 42 columns."""
    clause = "美咲は公園で友達と、"
    pieces = srt_pieces(Cue(CueKind.NARRATION, clause + "ゆっくり歩いて家に帰りながら空を見上げて笑っていた"))
    assert pieces[0].text == clause
