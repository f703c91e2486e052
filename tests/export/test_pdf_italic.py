"""Styled text in PDF sheets: italic narration (and bold headings) fall back to the regular
font before the fallback fonts, as PNG sheets and burned captions do, so characters the
regular font has and the styled one lacks (Arabic, in DejaVu Sans but not its Oblique) are
drawn, not shown as empty boxes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core import SetNarration
from studio.export import ExportOptions, export_branch
from studio.export.drawing import font_file, italic_font_file
from studio.export.sheet_pdf import PdfFonts, pdf_fonts
from studio.export.storyboard import TextStyle
from studio.export.typeface import coverage, fallback_font_files

from .helpers import Fixture

LATIN = frozenset(range(0x20, 0x250))
ARABIC = frozenset(range(0x600, 0x700))
KANA = frozenset(range(0x3040, 0x3100))
STYLES = {TextStyle.REGULAR: "R", TextStyle.BOLD: "B", TextStyle.ITALIC: "I"}


def test_italic_runs_use_the_italic_fonts_own_map_then_the_regular_font_then_the_fallbacks() -> None:
    fonts = PdfFonts(STYLES, covers=(LATIN | ARABIC, KANA), fallbacks=("F-1",),
                     own={TextStyle.ITALIC: LATIN, TextStyle.BOLD: LATIN | KANA})
    text = "Qiqi \u0628\u062a \u306f ok"
    assert fonts.runs(text, TextStyle.ITALIC) == [("I", "Qiqi "), ("R", "\u0628\u062a "), ("F-1", "\u306f "),
                                                  ("I", "ok")]
    assert fonts.runs(text, TextStyle.BOLD) == [("B", "Qiqi "), ("R", "\u0628\u062a "), ("B", "\u306f ok")]
    assert fonts.runs(text, TextStyle.REGULAR) == [("R", "Qiqi \u0628\u062a "), ("F-1", "\u306f "), ("R", "ok")]
    assert fonts.runs("Qiqi ok", TextStyle.ITALIC) == [("I", "Qiqi ok")]  # all in the italic font: one run
    assert fonts.runs("\U00013000", TextStyle.ITALIC) == [("I", "\U00013000")]  # in no font: the italic's box
    # without fallback fonts the italic text still falls back to the regular font
    alone = PdfFonts(STYLES, covers=(LATIN | ARABIC,), own={TextStyle.ITALIC: LATIN})
    assert alone.runs("Qiqi \u0628", TextStyle.ITALIC) == [("I", "Qiqi "), ("R", "\u0628")]
    # an italic font whose map can't be read is taken to cover what the regular font does
    unread = PdfFonts(STYLES, covers=(LATIN | ARABIC, KANA), fallbacks=("F-1",), own={TextStyle.ITALIC: frozenset()})
    assert unread.runs("Qiqi \u0628 \u306f", TextStyle.ITALIC) == [("I", "Qiqi \u0628 "), ("F-1", "\u306f")]
    # colour fonts (pictures) keep their place after the regular font
    emoji = PdfFonts(STYLES, covers=(LATIN | ARABIC, frozenset({0x1F34E})), fallbacks=("F-1",),
                     pictures={"F-1": Path("emoji.ttf")}, own={TextStyle.ITALIC: LATIN})
    assert emoji.runs("ok \U0001F34E \u0628", TextStyle.ITALIC) == [("I", "ok "), ("F-1", "\U0001F34E"),
                                                                    ("I", " "), ("R", "\u0628")]
    # the built-in fonts (no TrueType font found): one run in the style's font
    assert PdfFonts(STYLES).runs("Qiqi \u0628", TextStyle.ITALIC) == [("I", "Qiqi \u0628")]


def _only_in(regular: Path, styled: Path | None) -> list[str]:
    """Letters ``regular`` has and ``styled`` (and every fallback font) lacks."""
    if styled is None or styled == regular:
        pytest.skip("needs a styled TrueType font besides the regular one (DejaVu Sans Oblique, Bold)")
    others = frozenset().union(*(coverage(path) for path in fallback_font_files()))
    letters = [chr(code) for code in sorted(coverage(regular) - coverage(styled) - others) if chr(code).isalpha()]
    if len(letters) < 2:
        pytest.skip("the styled font has every letter the regular one has")
    return letters


def _regular() -> Path:
    regular = font_file(False)
    if regular is None:
        pytest.skip("no TrueType font on this machine")
    return regular


def _postscript_name(path: Path) -> str:
    from reportlab.pdfbase.ttfonts import TTFontFile

    name = TTFontFile(str(path)).name
    return name.decode() if isinstance(name, bytes) else str(name)


def _drawn_with(pdf: Path) -> list[tuple[str, str]]:
    """(font's PostScript name, text) for each piece of text on the PDF's pages, as pypdf reads them."""
    pypdf = pytest.importorskip("pypdf")
    pieces: list[tuple[str, str]] = []

    def visit(text: str, _cm: object, _tm: object, font: dict[str, object] | None, _size: object) -> None:
        if text.strip() and font is not None:
            pieces.append((str(font.get("/BaseFont", "")).lstrip("/").split("+")[-1], text))

    for page in pypdf.PdfReader(str(pdf)).pages:
        page.extract_text(visitor_text=visit)
    return pieces


def _page(pdf: Path, tmp_path: Path) -> np.ndarray:
    """The PDF's first page rendered by poppler at 72 dpi, in grey."""
    prefix = tmp_path / f"{pdf.stem}-page"
    subprocess.run(["pdftoppm", "-png", "-r", "72", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(prefix)],
                   check=True, capture_output=True, timeout=60)
    return np.asarray(Image.open(prefix.with_suffix(".png")).convert("L"))


def test_pdf_fonts_split_italic_text_by_the_italic_fonts_map() -> None:
    regular = _regular()
    one, other = _only_in(regular, italic_font_file())[:2]
    fonts = pdf_fonts()
    if fonts.styles[TextStyle.REGULAR] == "Helvetica":
        pytest.skip("reportlab could not embed the machine's font")
    italic, plain = fonts.styles[TextStyle.ITALIC], fonts.styles[TextStyle.REGULAR]
    assert fonts.runs(f"Qiqi {one}{other} waves", TextStyle.ITALIC) == [(italic, "Qiqi "), (plain, f"{one}{other} "),
                                                                         (italic, "waves")]
    assert fonts.runs("Qiqi waves", TextStyle.ITALIC) == [(italic, "Qiqi waves")]


def test_italic_narration_in_a_pdf_sheet_is_drawn_with_the_regular_font_not_boxes(story: Fixture,
                                                                                  tmp_path: Path) -> None:
    from studio.export.branch import collect_branch
    from studio.export.glyphs import drawn_texts, export_fonts, missing_glyphs
    from studio.export.options import ExportFormat

    regular = _regular()
    italic = italic_font_file()
    one, other = _only_in(regular, italic)[:2]
    assert italic is not None

    def export(narration: str, name: str) -> Path:
        story.project.apply(SetNarration(story.nodes[0], narration))
        pdf = tmp_path / f"{name}.pdf"
        result = export_branch(story.project, story.leaf, pdf, options=ExportOptions(panels_per_page=3))
        assert not any("none of the export's fonts" in note for note in result.notes), result.notes
        return pdf

    pdf = export(f"Qiqi {one}{other} waves", "narration")
    pieces = _drawn_with(pdf)
    regular_name, italic_name = _postscript_name(regular), _postscript_name(italic)
    drawn = {char: font for font, text in pieces for char in text if char in (one, other)}
    assert drawn == {one: regular_name, other: regular_name}, pieces
    # the Latin of the narration stays in the italic font
    assert any(font == italic_name and "Qiqi" in text for font, text in pieces), pieces
    # the missing-glyph check agrees: nothing of the narration is missing
    branch = collect_branch(story.project, story.leaf)
    texts = drawn_texts(branch, ExportOptions(panels_per_page=3), ExportFormat.PDF)
    assert missing_glyphs(texts, export_fonts(ExportFormat.PDF)) == []
    if shutil.which("pdftoppm") is None:
        return
    # rendered: two different letters, not the same empty box
    second = export(f"Qiqi {other}{one} waves", "swapped")
    assert not np.array_equal(_page(pdf, tmp_path), _page(second, tmp_path))


def test_a_bold_pdf_title_falls_back_to_the_regular_font(story: Fixture, tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    regular = _regular()
    one, other = _only_in(regular, font_file(True))[:2]  # DejaVu Sans Bold lacks its sans-serif maths letters
    fonts = pdf_fonts()
    if fonts.styles[TextStyle.REGULAR] == "Helvetica":
        pytest.skip("reportlab could not embed the machine's font")
    assert fonts.runs(f"Title {one}{other}", TextStyle.BOLD) == [(fonts.styles[TextStyle.BOLD], "Title "),
                                                                 (fonts.styles[TextStyle.REGULAR], f"{one}{other}")]

    def export(title: str, name: str) -> Path:
        pdf = tmp_path / f"{name}.pdf"
        result = export_branch(story.project, story.leaf, pdf, options=ExportOptions(panels_per_page=3, title=title))
        assert not any("none of the export's fonts" in note for note in result.notes), result.notes
        return pdf

    def outlined(pdf: Path) -> bool:
        return b" 2 Tr" in b"".join(page.get_contents().get_data() for page in pypdf.PdfReader(str(pdf)).pages)

    # the regular font's run in bold text is outlined, as the PNG's is; Latin in the bold font is not
    pdf = export(f"Title {one}{other}", "bold")
    assert outlined(pdf) and not outlined(export("Title", "plain"))
    if shutil.which("pdftoppm") is None:
        return
    # rendered: two different letters, not the same empty box
    swapped = export(f"Title {other}{one}", "swapped")
    assert not np.array_equal(_page(pdf, tmp_path), _page(swapped, tmp_path))
