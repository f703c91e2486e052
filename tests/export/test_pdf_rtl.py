"""Arabic and Hebrew in PDF sheets: reportlab draws characters left to right as given, so
each line is joined (Arabic presentation forms) and put in visual order before it is drawn
(:func:`studio.export.bidi_text.visual_line`), after the layout has wrapped it. Checked on
the line function, on the strings the PDF draws (read back with pypdf) and on the page
rendered by poppler, against the same line drawn by Pillow."""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont, features

from studio.core import AddDialogueLine
from studio.export import ExportOptions, export_branch
from studio.export.bidi_text import needs_bidi, visual_line
from studio.export.drawing import font_file
from studio.export.sheet_pdf import PdfFonts, PdfSheet, pdf_fonts
from studio.export.storyboard import Colour, TextStyle

from .helpers import Fixture

ARABIC = "مرحبا بالعالم"  # "hello, world"
HEBREW = "שלום עולם"
MIXED = "Qiqi says مرحبا 123"


def _forms(*names: str) -> str:
    """Arabic presentation forms by name: "MEEM INITIAL" is ARABIC LETTER MEEM INITIAL FORM."""
    return "".join(unicodedata.lookup(f"ARABIC LETTER {name} FORM") for name in names)


#: مرحبا joined (initial meem, final reh, initial hah, medial beh, final alef), left to right.
MARHABA = _forms("ALEF FINAL", "BEH MEDIAL", "HAH INITIAL", "REH FINAL", "MEEM INITIAL")
#: بالعالم joined, left to right.
BIL_ALAM = _forms("MEEM FINAL", "LAM INITIAL", "ALEF FINAL", "AIN MEDIAL", "LAM INITIAL", "ALEF FINAL", "BEH INITIAL")
ARABIC_DRAWN = f"{BIL_ALAM} {MARHABA}"
HEBREW_DRAWN = "םלוע םולש"
MIXED_DRAWN = f"Qiqi says 123 {MARHABA}"

LATIN = frozenset(range(0x20, 0x250))
ARABIC_MAP = frozenset(range(0x600, 0x700)) | frozenset(range(0xFE70, 0xFF00))
STYLES = {TextStyle.REGULAR: "R", TextStyle.BOLD: "B", TextStyle.ITALIC: "I"}


# -- the line function -------------------------------------------------------------------


def test_arabic_is_joined_and_right_to_left() -> None:
    assert visual_line(ARABIC) == ARABIC_DRAWN
    # the same letters: read right to left and unjoined, the line is the text again
    assert unicodedata.normalize("NFKC", ARABIC_DRAWN[::-1]) == ARABIC
    # lam-alef is one ligature, as Arabic requires
    assert visual_line("لا") == "\N{ARABIC LIGATURE LAM WITH ALEF ISOLATED FORM}"


def test_hebrew_is_right_to_left() -> None:
    assert visual_line(HEBREW) == HEBREW_DRAWN
    assert visual_line(f"Qiqi: {HEBREW}!") == f"Qiqi: {HEBREW_DRAWN}!"


def test_a_mixed_line_keeps_latin_and_numbers_left_to_right() -> None:
    assert visual_line(MIXED) == MIXED_DRAWN
    assert visual_line(f"{HEBREW} 2024 abc") == f"abc 2024 {HEBREW_DRAWN}"


def test_brackets_are_mirrored_in_right_to_left_runs_only() -> None:
    assert visual_line("שלום (עולם)") == "(םלוע) םולש"
    assert visual_line("(تضحك)") == "(" + _forms("KAF FINAL", "HAH MEDIAL", "DAD MEDIAL", "TEH INITIAL") + ")"
    # brackets resolved left to right (Latin inside, after Latin) keep their shape
    assert visual_line("שלום abc (def) עולם") == "םלוע abc (def) םולש"
    assert visual_line("Qiqi (שלום) waves") == "Qiqi (םולש) waves"
    assert visual_line("שלום 1<2") == "2>1 םולש"


def test_vowel_signs_are_kept_and_bidi_controls_dropped() -> None:
    # a mark stands before its letter, where DejaVu Sans draws it over the letter after it
    assert visual_line("مَ") == "\N{ARABIC FATHA}\N{ARABIC LETTER MEEM}"  # alone: the letter's own code point
    assert visual_line("\N{RIGHT-TO-LEFT EMBEDDING}שלום\N{POP DIRECTIONAL FORMATTING}") == "םולש"


def test_emoji_sequences_are_not_turned_around() -> None:
    wave, sun, family = "\U0001f44b\U0001f3fd", "\u2600\ufe0f", "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert visual_line(f"שלום {wave} {sun} {family} עולם") == f"םלוע {family} {sun} {wave} םולש"


def test_text_with_nothing_right_to_left_is_returned_as_it_is() -> None:
    for text in ("Qiqi waves (twice) at 12:30 <3", "こんにちは、キキ", "Café ☀️ 🍎", ""):
        assert not needs_bidi(text)
        assert visual_line(text) is text


def test_a_joined_form_no_font_has_is_drawn_as_its_letters() -> None:
    plain = (frozenset(range(0x600, 0x700)),)  # Arabic letters, no presentation forms
    assert visual_line("لا", plain) == "ال"  # lam (right) and alef (left), unjoined
    assert visual_line("لا", (ARABIC_MAP,)) == "\N{ARABIC LIGATURE LAM WITH ALEF ISOLATED FORM}"


def test_a_vowel_sign_before_a_word_goes_with_its_letters_font() -> None:
    # italic narration: the Oblique has no Arabic, so the word is in the regular font, and
    # the mark that comes before the word's last letter in visual order goes with it
    fonts = PdfFonts(STYLES, covers=(LATIN | ARABIC_MAP,), own={TextStyle.ITALIC: LATIN})
    line = visual_line("Qiqi قصةٌ")
    assert line == "Qiqi \N{ARABIC DAMMATAN}" + _forms("TEH MARBUTA FINAL", "SAD MEDIAL", "QAF INITIAL")
    assert fonts.runs(line, TextStyle.ITALIC) == [("I", "Qiqi "), ("R", line[5:])]
    # a mark the run's own font has stays with it
    assert fonts.runs(line, TextStyle.REGULAR) == [("R", line)]


# -- the PDF -------------------------------------------------------------------------------


def _to_unicode(cmap: str) -> dict[int, str]:
    """A font's ToUnicode map as reportlab writes it (bfchar pairs, bfranges)."""
    codes: dict[int, str] = {}
    for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
        for code, text in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            codes[int(code, 16)] = bytes.fromhex(text).decode("utf-16-be")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", cmap, re.S):
        for low, high, start in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            for offset in range(int(high, 16) - int(low, 16) + 1):
                codes[int(low, 16) + offset] = chr(int(start, 16) + offset)
    return codes


def _raw(piece: bytes | str) -> bytes:
    """A PDF string's bytes as written (pypdf decodes some strings as text)."""
    raw = getattr(piece, "original_bytes", piece)
    return raw if isinstance(raw, bytes) else raw.encode("latin-1")


def _drawn_strings(pdf: Path) -> list[str]:
    """The strings the PDF's text operators draw, each in the order its glyphs are laid out
    left to right (pypdf's text extraction puts right-to-left text back in reading order)."""
    pypdf = pytest.importorskip("pypdf")
    from pypdf.generic import ContentStream

    reader = pypdf.PdfReader(str(pdf))
    drawn: list[str] = []
    for page in reader.pages:
        fonts = page["/Resources"]["/Font"]
        maps = {name: _to_unicode(font.get_object()["/ToUnicode"].get_data().decode("latin-1"))
                for name, font in fonts.items() if "/ToUnicode" in font.get_object()}
        current: dict[int, str] = {}
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator == b"Tf":
                current = maps.get(operands[0], {})
            elif operator in (b"Tj", b"TJ"):
                pieces = operands[0] if operator == b"TJ" else [operands[0]]
                codes = b"".join(_raw(piece) for piece in pieces if isinstance(piece, bytes | str))
                drawn.append("".join(current.get(code, chr(code)) for code in codes))
    return drawn


def _export(story: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[tuple[float, ...]]]:
    """A one-page sheet with the three lines; and where each of them was drawn: (x, top,
    size) in points, recorded from the PDF canvas."""
    if font_file(False) is None or pdf_fonts().styles[TextStyle.REGULAR] == "Helvetica":
        pytest.skip("needs a TrueType font with Arabic and Hebrew (DejaVu Sans)")
    first = story.nodes[0]
    for text in (ARABIC, HEBREW, MIXED):
        story.project.apply(AddDialogueLine(first, "Qiqi", text))
    placed: dict[str, tuple[float, ...]] = {}
    draw = PdfSheet.text

    def spy(sheet: PdfSheet, x: float, top: float, text: str, size: float, style: TextStyle, colour: Colour,
            align: str = "left") -> None:
        left = x - sheet.width(text, size, style) if align == "right" else x  # a right-to-left line: its right end
        placed.setdefault(text, (left, top, size))
        draw(sheet, x, top, text, size, style, colour, align=align)

    monkeypatch.setattr(PdfSheet, "text", spy)
    pdf = tmp_path / "rtl.pdf"
    export_branch(story.project, story.leaf, pdf, options=ExportOptions(panels_per_page=3))
    return pdf, [placed[text] for text in (ARABIC, HEBREW, MIXED)]


def test_a_pdf_sheet_draws_arabic_joined_and_hebrew_right_to_left(story: Fixture, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    pdf, _ = _export(story, tmp_path, monkeypatch)
    drawn = _drawn_strings(pdf)
    assert HEBREW_DRAWN in drawn, drawn
    assert ARABIC_DRAWN in drawn, drawn
    assert MIXED_DRAWN in drawn, drawn
    assert HEBREW not in drawn and ARABIC not in drawn
    if shutil.which("pdftotext") is None:
        return
    # searchable: poppler reads the lines back in reading order (joined forms unfolded)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True,
                          text=True, timeout=60).stdout
    lines = {"".join(char for char in unicodedata.normalize("NFKC", line) if unicodedata.category(char) != "Cf")
             for line in text.splitlines()}
    assert {ARABIC, HEBREW} <= lines


def _ink(image: Image.Image) -> np.ndarray:
    """Ink (0 to 1) of a grey picture, softened so that a pixel's shift does not count."""
    ink = 1 - np.asarray(image.convert("L"), dtype=np.float64) / 255
    soft = np.zeros_like(ink)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            soft += np.roll(np.roll(ink, dy, 0), dx, 1)
    return soft / 9


def _likeness(one: np.ndarray, other: np.ndarray) -> float:
    """How alike two pictures of ink are (correlation, 1 for the same), at the best of a few
    pixels' shift: poppler and Pillow may place a glyph a pixel apart."""
    best = -1.0
    for dy in range(-2, 3):
        for dx in range(-3, 4):
            shifted = np.roll(np.roll(other, dy, 0), dx, 1)
            a, b = one - one.mean(), shifted - shifted.mean()
            best = max(best, float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum())))
    return best


def test_the_rendered_pdf_shows_the_lines_as_pillow_draws_them(story: Fixture, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("pdftoppm") is None:
        pytest.skip("needs poppler's pdftoppm")
    regular = font_file(False)
    pdf, places = _export(story, tmp_path, monkeypatch)
    dpi = 150
    prefix = tmp_path / "page"
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile", str(pdf), str(prefix)],
                   check=True, capture_output=True, timeout=60)
    page = Image.open(prefix.with_suffix(".png")).convert("L")
    scale = dpi / 72
    for (x, top, size), right, wrong in zip(places, (ARABIC_DRAWN, HEBREW_DRAWN, MIXED_DRAWN),
                                            (ARABIC, HEBREW, MIXED), strict=True):
        basic = ImageFont.truetype(str(regular), round(size * scale), layout_engine=ImageFont.Layout.BASIC)
        box = (round(x * scale) - 4, round(top * scale) - 2, round(x * scale) + round(basic.getlength(right)) + 8,
               round((top + size * 1.3) * scale))
        shown = _ink(page.crop(box))

        def drawn(text: str, font: ImageFont.FreeTypeFont = basic, box: tuple[int, int, int, int] = box,
                  x: float = x, baseline: float = top + size * 0.95) -> np.ndarray:
            """``text`` drawn by Pillow where the sheet draws its line."""
            picture = Image.new("L", (box[2] - box[0], box[3] - box[1]), 255)
            ImageDraw.Draw(picture).text((x * scale - box[0], baseline * scale - box[1]), text, fill=0, font=font,
                                         anchor="ls")
            return _ink(picture)

        # the glyphs of the line in visual order, glyph after glyph; not those of the text as typed
        likeness = _likeness(shown, drawn(right))
        assert likeness > 0.85, right
        assert likeness > _likeness(shown, drawn(wrong)) + 0.1, right
        if features.check("raqm"):  # and as libraqm lays out the text as typed (the PNG sheet's way)
            raqm = ImageFont.truetype(str(regular), round(size * scale), layout_engine=ImageFont.Layout.RAQM)
            assert _likeness(shown, drawn(wrong, raqm)) > 0.85, right
