"""Japanese text wrapped without spaces, in burned captions, SRT subtitles and sheet panels.

Found: a Latin word or a number inside Japanese was cut across two lines of a burned caption
or a sheet panel (``…公園でiP`` / ``hone を…``, ``1`` / ``2345678``); full-width digits were
cut in all three (``１`` / ``２３４５``); a line started with a wave dash, a full-width colon
or a closing curly quote, or ended with an opening curly quote or ``［``. The rules are the
strict set of JIS X 4051 (:data:`studio.export.drawing.NO_LINE_START`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import ExportOptions, export_branch
from studio.export.branch import collect_branch
from studio.export.cues import Cue, CueKind
from studio.export.drawing import NO_LINE_END, NO_LINE_START, caption_layout, load_typeface, wrap_text
from studio.export.sheet import poster_image, sheet_layout, sheet_turns
from studio.export.sheet_png import PngPage
from studio.export.storyboard import lay_out_sheet
from studio.export.subtitles import SRT_LINE, display_width, srt_cue_text, wrap_columns

from .helpers import Fixture, parse_srt

HEAD = "あいうえおかきくけこさしすせそたちつてと"  # 20 characters: 40 of an SRT line's 42 columns
WHOLE = ("iPhone", "12345678", "ＡＢＣ１２３", "２０２４")
# the strict rules as JLREQ lists them, written out here rather than taken from the code under test
NEVER_FIRST = ("、。，．：；？！‼゛゜ヽヾゝゞ々〻ー’”）〕］｝〉》」』】〙〗〟»〜゠‐–・…‥"
               "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ％‰℃")
NEVER_LAST = "‘“（〔［｛〈《「『【〘〖〝«"


def _assert_rules(lines: list[str], text: str) -> None:
    assert "".join(lines).replace(" ", "") == text.replace(" ", ""), lines
    lines = [line.replace(" ", "") for line in lines]
    assert not any(line[0] in NEVER_FIRST for line in lines[1:]), lines
    assert not any(line[-1] in NEVER_LAST for line in lines[:-1]), lines
    joined, ends, at = "".join(lines), set(), 0
    for line in lines[:-1]:
        at += len(line)
        ends.add(at)
    for word in WHOLE:  # no line break inside any of its occurrences
        starts = [found for found in range(len(joined)) if joined.startswith(word, found)]
        assert all(not ends & set(range(found + 1, found + len(word))) for found in starts), (word, lines)


@pytest.mark.parametrize("tail", ["“なにぬねの”", "な〜にぬねの", "な：にぬ", "［にぬ］", "１２３４５", "な’にぬ",
                                  "な％にぬ"])
def test_srt_lines_keep_the_rules(tail: str) -> None:
    text = HEAD + tail
    lines = wrap_columns(text, SRT_LINE)
    assert len(lines) == 2 and all(display_width(line) <= SRT_LINE for line in lines)
    _assert_rules(lines, text)
    # the rules hold in the SRT file's text too
    _assert_rules(srt_cue_text(Cue(CueKind.NARRATION, text))[3:-4].split("\n"), text)


TEXTS = ["今日はとても良い天気ですね公園でiPhoneを使って写真を撮りましょう",
         "今日はとても良い天気ですね公園で12345678を使って写真を撮りましょう",
         "今日はとても良い天気ですね公園でＡＢＣ１２３を使って写真を撮りましょう",
         "今日はとても良い天気ですね公園で“写真”を撮りましょう",
         "今日はとても良い天気ですね公園で〜写真を撮りましょう",
         "Qiqi: 今日はとても良い天気ですね公園でiPhoneを使って写真を撮りましょう"]


@pytest.mark.parametrize("text", TEXTS)
def test_drawn_lines_keep_latin_words_and_numbers_whole(text: str) -> None:
    """Every width from where the word would start the second line to where it ends the first."""
    face = load_typeface(16)
    for room in range(240, 360, 2):
        lines = wrap_text(text, face.width, room)
        assert all(face.width(line) <= room for line in lines), (room, lines)
        _assert_rules(lines, text)


@pytest.mark.parametrize("width", [200, 240, 280, 320, 360])
def test_burned_caption_lines_keep_the_rules(width: int) -> None:
    text = "美咲: " + TEXTS[0][:16] + "、２０２４年に“新しい”iPhoneを買った〜！"
    _face, lines, cut = caption_layout((width, 240), text)
    assert not cut
    _assert_rules(list(lines), text)


def test_the_rules_are_the_strict_set() -> None:
    assert set(NEVER_FIRST) <= NO_LINE_START and set(NEVER_LAST) <= NO_LINE_END


def test_long_unbroken_japanese_keeps_every_character(story: Fixture, tmp_path: Path) -> None:
    """A narration of 300 characters with no space: the SRT shows all of it in order in cues
    of two lines, each line within 42 columns and the rules kept."""
    text = ("夜、美咲は公園で手を振る。「ちょっと待って！」と彼女は言った。ーっ、ぁ、そうだ……。"
            "２０２４年のiPhoneで写真を撮った〜。") * 5
    story.project.apply(SetNarration(story.nodes[0], text))
    story.project.apply(SetDuration(story.nodes[0], 60.0))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "long.srt").path.read_text(
        encoding="utf-8"))
    mine = [body.removeprefix("<i>").removesuffix("</i>") for _, _, body in entries if body.startswith("<i>")]
    lines = [line for body in mine for line in body.split("\n")]
    assert "".join(lines) == text
    assert all(len(body.split("\n")) <= 2 for body in mine)
    assert all(display_width(line) <= SRT_LINE for line in lines)
    _assert_rules(lines, text)


def test_sheet_panel_lines_keep_the_rules(story: Fixture) -> None:
    narration = TEXTS[0] + "。" + TEXTS[2] + "。「ええ、“いい”ですね〜」"
    story.project.apply(SetNarration(story.nodes[0], narration))
    story.project.apply(AddDialogueLine(story.nodes[0], "美咲", TEXTS[1]))
    branch = collect_branch(story.project, story.leaf)
    layout = sheet_layout(ExportOptions(panels_per_page=3), poster_image(branch.turns[0]))
    pages = lay_out_sheet(layout, sheet_turns(branch), PngPage(layout).width)
    texts = [line.text for page in pages for panel in page for line in panel.lines]
    shown: list[str] = []
    for line in texts[texts.index("NARRATION") + 1:]:
        shown.append(line)
        if line.endswith("」"):
            break
    assert len(shown) > 1, texts
    _assert_rules(shown, narration)


KOREAN = "오늘은 날씨가 정말 좋네요. 공원에서 같이 사진을 찍어요. 친구들이 모두 기다리고 있어요."


def test_korean_breaks_between_words() -> None:
    """Korean is written with spaces: its lines break there, never between a word's syllables."""
    words = KOREAN.split(" ")
    face = load_typeface(16)
    for lines in ([*wrap_columns(KOREAN, 20)], *(wrap_text(KOREAN, face.width, room) for room in range(90, 260, 7))):
        assert [word for line in lines for word in line.split(" ")] == words, lines
    # a word wider than a line is still cut
    assert wrap_text("가나다라마바사아자차카타파하", len, 5) == ["가나다라마", "바사아자차", "카타파하"]
