"""A line that mixes right-to-left text with a script of another font ("مرحبا 東京 سلام":
Arabic in DejaVu Sans, the kanji in the CJK fallback font) in PNG sheets, cards and captions.

Pillow orders the characters of one ``draw.text`` call only, so such a line drawn run by run
in logical order came out with مرحبا on the left. It is now put in visual order as a whole
first (as PDF sheets do), then split into runs drawn left to right: checked on the layout
(:meth:`Typeface.layout`: runs and their x offsets), on the pixels against each word drawn
alone by Pillow, and on a real PNG sheet read back with PIL."""

from __future__ import annotations

import itertools
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from studio.core import AddDialogueLine
from studio.export import ExportOptions, export_branch
from studio.export.drawing import font_file, load_typeface
from studio.export.sheet_png import PngPage
from studio.export.storyboard import WIDE, StoryboardLayout, TextStyle
from studio.export.typeface import PlacedRun, Typeface, coverage, fallback_font_files

from .helpers import Fixture

HELLO, TOKYO, PEACE = "مرحبا", "東京", "سلام"
LINE = f"{HELLO} {TOKYO} {PEACE}"
"""Right to left (its first strong letter is Arabic): drawn, from the left, سلام 東京 مرحبا."""


def _typeface(size: int = 40, bold: bool = False) -> Typeface:
    regular = font_file(False)
    if regular is None or ord("م") not in coverage(regular):
        pytest.skip("no TrueType font with Arabic on this machine (DejaVu Sans has it)")
    if not any(ord("東") in coverage(path) for path in fallback_font_files()):
        pytest.skip("no CJK font on this machine (packaging/system-packages.txt lists one)")
    return load_typeface(size, bold=bold)


def _read(run: PlacedRun) -> str:
    """A run as it reads: a right-to-left run's joined letters put back in logical order and
    unjoined (a lam-alef ligature is one character, its letters in logical order), without
    the spaces at its ends."""
    if any(unicodedata.bidirectional(char) in ("R", "AL") for char in run.text):
        return "".join(unicodedata.normalize("NFKC", char) for char in reversed(run.text)).strip()
    return run.text.strip()


def test_a_right_to_left_line_with_a_kanji_run_is_laid_out_in_visual_order() -> None:
    face = _typeface()
    runs = face.layout(LINE)
    assert [_read(run) for run in runs] == [PEACE, TOKYO, HELLO]
    assert [run.index == 0 for run in runs] == [True, False, True]  # the kanji in the fallback font
    assert runs[0].x == 0
    for before, after in itertools.pairwise(runs):
        assert after.x == pytest.approx(before.x + before.width) and after.x > before.x
    assert face.width(LINE) == pytest.approx(runs[-1].x + runs[-1].width)


@pytest.mark.parametrize(("line", "expected"), [
    (f"Qiqi {HELLO} {TOKYO} ok", [f"Qiqi {HELLO[::-1]}", TOKYO, "ok"]),  # left to right, from Qiqi
    ("שלום (東京) עולם", ["םלוע (", TOKYO, ") םולש"]),  # brackets mirrored, the kanji inside them
    (f"{TOKYO} {HELLO}", [TOKYO, HELLO[::-1]]),  # left to right: the kanji is the first strong letter
])
def test_the_line_direction_comes_from_its_first_strong_letter(line: str, expected: list[str]) -> None:
    """Each run's letters as drawn, left to right (Arabic unjoined: its letters reversed)."""
    face = _typeface()
    assert [unicodedata.normalize("NFKC", run.text).strip() for run in face.layout(line)] == expected


def test_lines_in_one_font_or_without_right_to_left_text_are_laid_out_as_before() -> None:
    face = _typeface()
    assert [(run.index, run.text, run.x) for run in face.layout(f"{HELLO} {PEACE}")] == [(0, f"{HELLO} {PEACE}", 0)]
    mixed = "Qiqi は 桜 を見る, ok"
    assert [(run.font, run.text) for run in face.layout(mixed)] == face.runs(mixed)


def _ink(face: Typeface, text: str) -> np.ndarray:
    """Where ``text`` drawn by ``face`` has ink, cropped to its columns."""
    image = Image.new("L", (900, 80), 0)
    face.draw(ImageDraw.Draw(image), (20, 10), text, 255)
    ink = np.asarray(image) > 96
    columns = np.flatnonzero(ink.any(axis=0))
    return ink[:, columns.min():columns.max() + 1]


def _mismatch(a: np.ndarray, b: np.ndarray) -> float:
    return float((a != b).mean())


@pytest.mark.parametrize("bold", [False, True])
def test_the_drawn_line_shows_the_last_arabic_word_on_the_left(bold: bool) -> None:
    face = _typeface(bold=bold)
    line, left_word, right_word = _ink(face, LINE), _ink(face, PEACE), _ink(face, HELLO)
    # each word alone is one run, which Pillow (libraqm) joins and orders itself
    assert _mismatch(line[:, :left_word.shape[1]], left_word) < 0.02
    assert _mismatch(line[:, -right_word.shape[1]:], right_word) < 0.02
    assert _mismatch(line[:, :right_word.shape[1]], right_word) > 0.05  # the old order: مرحبا on the left


def test_a_png_page_draws_the_line_in_visual_order_and_right_aligns_it() -> None:
    _typeface()
    layout = StoryboardLayout(3, WIDE)
    page = PngPage(layout)
    page.text(20, 20, LINE, 24, TextStyle.REGULAR, (0, 0, 0))
    page.text(400, 80, LINE, 24, TextStyle.REGULAR, (0, 0, 0), align="right")
    face = page.face(24, TextStyle.REGULAR)
    drawn = np.asarray(page.page.convert("L")) < 160
    word = _ink(face, PEACE)
    for top, right in ((page.px(20), None), (page.px(80), page.px(400))):
        band = drawn[top:top + face.line_height() + 4]
        columns = np.flatnonzero(band.any(axis=0))
        assert columns.size, "nothing drawn"
        start = columns.min()
        piece = band[:, start:start + word.shape[1]]
        rows = np.flatnonzero(piece.any(axis=1))
        word_rows = np.flatnonzero(word.any(axis=1))
        piece = piece[rows.min():rows.min() + word_rows.max() - word_rows.min() + 1]
        assert _mismatch(piece, word[word_rows.min():word_rows.max() + 1]) < 0.05
        if right is not None:
            assert right - 10 <= columns.max() <= right  # the last letter's side bearing aside
            assert abs(start - (right - face.width(LINE))) <= 6


def test_a_png_sheet_with_the_line_renders(story: Fixture, tmp_path: Path) -> None:
    _typeface()
    first = story.nodes[0]
    story.project.apply(AddDialogueLine(first, "Qiqi", LINE))
    out = tmp_path / "board.png"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=3,
                                                                                 sheet_title=LINE))
    assert not any("none of the export's fonts" in note for note in result.notes), result.notes
    plain = tmp_path / "plain.png"
    export_branch(story.project, story.leaf, plain, options=ExportOptions(panels_per_page=3, sheet_title="Plain"))
    with Image.open(out) as image, Image.open(plain) as other:
        assert image.format == "PNG" and image.size == other.size
        pixels, others = np.asarray(image.convert("L")), np.asarray(other.convert("L"))
    assert (pixels < 128).sum() > 1000  # text, frames, panels
    changed = np.argwhere(pixels != others)
    assert changed.size  # the heading is drawn
    assert changed[:, 0].min() < pixels.shape[0] // 8  # at the top of the page
