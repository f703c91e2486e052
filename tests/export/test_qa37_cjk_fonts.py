"""Japanese text in burned captions and sheets is drawn with a CJK font where the machine has
one (never as empty boxes), and a character no font of the export has is named. A PDF sheet
embeds only TrueType fonts: where the machine's only font with a character is one a PDF
can't embed (Noto Sans CJK's OpenType collection), the note said to install Noto Sans CJK,
already installed; it now says a PNG sheet draws them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from studio.core import SetNarration
from studio.export import ExportOptions, export_branch
from studio.export.drawing import caption_layout, load_typeface
from studio.export.glyphs import export_fonts, glyph_note, missing_glyphs
from studio.export.options import ExportFormat
from studio.export.typeface import coverage, fallback_font_files

from .helpers import Fixture

JAPANESE = "美咲: 「こんにちは」夜の公園〜"


def _cjk_fonts() -> list[Path]:
    return [path for path in fallback_font_files() if all(ord(char) in coverage(path) for char in "美咲こん")]


def _ink(face_draw: object, text: str) -> np.ndarray:
    image = Image.new("L", (200, 60), 0)
    face_draw.draw(ImageDraw.Draw(image), (4, 4), text, 255)  # type: ignore[attr-defined]
    return np.asarray(image)


def test_a_japanese_caption_is_drawn_with_a_cjk_font() -> None:
    if not _cjk_fonts():
        pytest.skip("no CJK font installed (fonts-noto-cjk or fonts-droid-fallback)")
    face, lines, _cut = caption_layout((320, 240), JAPANESE)
    assert "".join(lines) == JAPANESE
    paths = {Path(font.path) for font, run in face.runs(JAPANESE) if any(ord(c) > 0x3000 for c in run)}
    assert paths and paths <= set(_cjk_fonts()), paths
    # each character draws its own glyph, not the empty box every missing character gets
    box = _ink(face, "\U000e0100\uffff")  # no font has a glyph for these
    drawn = [_ink(face, char) for char in "美咲こ夜〜"]
    assert all(pixels.any() for pixels in drawn)
    assert all(not np.array_equal(pixels, box) for pixels in drawn)
    assert len({pixels.tobytes() for pixels in drawn}) == len(drawn)


def test_without_a_cjk_font_the_characters_are_named() -> None:
    regular = export_fonts(ExportFormat.MP4)[:1]
    if not regular:
        pytest.skip("no TrueType font")
    missing = missing_glyphs([JAPANESE], regular)
    assert missing[:3] == ["美", "咲", "「"]
    note = glyph_note(missing)
    assert "美 咲" in note and "Noto Sans CJK" in note


def test_a_pdf_sheet_says_a_png_sheet_draws_what_it_cannot(story: Fixture, tmp_path: Path) -> None:
    name = "𠮷田さん"  # a name's kanji outside the Basic Multilingual Plane
    if not missing_glyphs([name], export_fonts(ExportFormat.PDF)) or missing_glyphs([name],
                                                                                      export_fonts(ExportFormat.PNG)):
        pytest.skip("needs a font with 𠮷 that a PDF can't embed (Noto Sans CJK) and none that it can")
    story.project.apply(SetNarration(story.nodes[0], f"{name}は公園を歩く。"))
    pdf = export_branch(story.project, story.leaf, tmp_path / "sheet.pdf", options=ExportOptions())
    notes = " ".join(pdf.notes)
    assert "𠮷" in notes and "export the sheet as PNG" in notes and "install a font" not in notes
    png = export_branch(story.project, story.leaf, tmp_path / "sheet.png", options=ExportOptions())
    assert not any("empty boxes" in note for note in png.notes)
    assert Image.open(png.path).size[0] > 0


def test_load_typeface_falls_back_for_kana() -> None:
    face = load_typeface(16)
    if not _cjk_fonts():
        pytest.skip("no CJK font installed")
    assert face.width("こんにちは") == pytest.approx(5 * face.width("こ"), rel=0.1)
