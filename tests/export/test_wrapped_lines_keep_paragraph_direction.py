"""A paragraph that mixes right-to-left and left-to-right text keeps one direction on all the
lines it wraps into, in burned captions and on PDF and PNG sheets (Unicode Bidirectional
Algorithm, rules P2 and P3: the paragraph's first strong letter, or a line of dialogue's own
text, sets it once; each wrapped line is reordered and aligned by it).

Each line used to take its direction from its own first letter: the second line of an English
sentence that began with an Arabic word was laid out as an Arabic paragraph (the English words
moved to its left end), and the second line of an Arabic sentence that began with a Latin name
was laid out as English and aligned left on a sheet.

The expected drawing comes from outside the product's own reordering: libraqm (Pillow's
``direction``) for captions and PNG sheets, python-bidi with an explicit base direction for
the strings a PDF sheet draws; the PDF's text is read back with pypdf."""

from __future__ import annotations

import itertools
import unicodedata
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, features

from studio.core import AddDialogueLine, SetDuration
from studio.export import ExportOptions, export_branch
from studio.export.bidi_text import BIDI_CONTROLS, shape_arabic, starts_right_to_left
from studio.export.branch import collect_branch
from studio.export.compose import frame_patches
from studio.export.drawing import PANEL, TEXT, caption_layout, caption_patch, font_file, load_typeface
from studio.export.options import CaptionMode
from studio.export.sheet_pdf import PdfMetadata, PdfSheet, pdf_fonts
from studio.export.sheet_png import PngPage
from studio.export.storyboard import Colour, StoryboardLayout, TextStyle
from studio.export.timeline import plan_timeline
from studio.export.typeface import coverage

from .helpers import FPS, SIZE, Fixture, parse_srt
from .test_pdf_rtl import _drawn_strings

LATIN_WORDS = ("Qiqi", "waves", "to", "her", "friend", "across", "the", "street")
ARABIC_WORDS = ("يلوح", "يوزو", "إلى", "صديقته", "في", "الشارع")
LATIN_TAIL = "مرحبا يا يوزو and Qiqi smiles."
"""Ends a Latin paragraph on a line of its own that starts with Arabic."""
ARABIC_TAIL = "Qiqi تبتسم له."
"""Ends an Arabic paragraph on a line of its own that starts with a Latin name."""

CAPTION_SIZE = (640, 360)
SHEET = StoryboardLayout(3, SIZE[1] / SIZE[0])  # the fixture's clips are 96 x 64
DIALOGUE_SIZE = 11.0  # the sheet's largest text size, which the few lines of a panel keep


def _needs_fonts() -> None:
    regular = font_file(False)
    if regular is None or ord("م") not in coverage(regular):
        pytest.skip("needs a TrueType font with Arabic (DejaVu Sans)")
    if not features.check("raqm"):
        pytest.skip("Pillow draws right-to-left text through libraqm, which this Pillow lacks")


def _plain(line: str) -> str:
    """A line without the invisible bidi marks."""
    return "".join(char for char in line if char not in BIDI_CONTROLS)


def _filled(words: tuple[str, ...], tail: str, measure: Callable[[str], float], width: float,
            start: str = "") -> str:
    """``start``, then ``words`` over and over until ``tail``'s first word no longer fits on the
    line of ``width``: ``tail`` then starts the next line."""
    first, shortest = tail.split()[0], min(words, key=measure)
    line = start
    for word in itertools.cycle(words):
        if line and measure(f"{line} {first}") > width:
            return f"{line} {tail}"
        if measure(f"{line} {word}".strip()) > width:
            word = shortest  # narrower than the tail's first word, which still fits
        line = f"{line} {word}".strip()
    raise AssertionError("unreachable")


def _paragraphs(measure: Callable[[str], float], width: float) -> dict[str, bool]:
    """The four paragraphs, each with its direction (right to left: True)."""
    return {
        _filled(LATIN_WORDS, LATIN_TAIL, measure, width): False,
        _filled(ARABIC_WORDS, ARABIC_TAIL, measure, width): True,
        " ".join(ARABIC_WORDS * 3): True,
        " ".join(LATIN_WORDS * 3): False,
    }


def _direction_of(line: str, paragraphs: dict[str, bool]) -> bool:
    """The direction ``line`` must be drawn in: its paragraph's."""
    shown = _plain(line)
    return next((rtl for text, rtl in paragraphs.items() if shown and shown in text), starts_right_to_left(shown))


def _assert_wrapped_as_planned(lines: list[str]) -> None:
    """The test's texts wrap as they were made to: a line starts with the Arabic of
    ``LATIN_TAIL`` and one with the Latin name of ``ARABIC_TAIL``."""
    assert any(_plain(line) == LATIN_TAIL for line in lines), lines
    assert any(_plain(line) == ARABIC_TAIL for line in lines), lines


# -- burned captions -----------------------------------------------------------------------


def _reference_caption(size: tuple[int, int], text: str, rtl: bool, direction: str | None = None) -> np.ndarray:
    """The caption band as libraqm draws each of its lines in the direction ``rtl`` (or
    ``direction``), centred, where the export puts them."""
    face, lines, _cut = caption_layout(size, text, rtl=rtl)
    patch = caption_patch(size, text, rtl=rtl)
    assert patch is not None
    pad = (patch.rgba.shape[0] - face.line_height() * len(lines)) // 2
    image = Image.new("RGBA", (size[0], patch.rgba.shape[0]), (*PANEL, 170))
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text(((size[0] - face.width(line)) / 2, pad + row * face.line_height()), _plain(line), font=face.primary,
                  fill=(*TEXT, 255), direction=direction or ("rtl" if rtl else "ltr"))
    return np.asarray(image)


def test_each_caption_line_is_drawn_in_its_paragraphs_direction() -> None:
    _needs_fonts()
    face = load_typeface(max(10, min(CAPTION_SIZE) // 24))
    room = CAPTION_SIZE[0] * 0.92 - 2 * max(4, CAPTION_SIZE[1] // 60)
    paragraphs = _paragraphs(face.width, room)
    lines = [line for text in paragraphs for line in caption_layout(CAPTION_SIZE, text)[1]]
    _assert_wrapped_as_planned(lines)
    for text, rtl in paragraphs.items():
        patch = caption_patch(CAPTION_SIZE, text)
        assert patch is not None
        shown = caption_layout(CAPTION_SIZE, text)[1]
        assert len(shown) > 1  # a paragraph of several lines
        if not text.endswith((LATIN_TAIL, ARABIC_TAIL)):  # of one script: its lines as they were
            assert all(_plain(line) == line for line in shown)
        assert np.array_equal(patch.rgba, _reference_caption(CAPTION_SIZE, text, rtl)), text
        if text.endswith((LATIN_TAIL, ARABIC_TAIL)):  # the other direction draws these lines otherwise
            other = _reference_caption(CAPTION_SIZE, text, rtl, "ltr" if rtl else "rtl")
            assert not np.array_equal(patch.rgba, other)


def test_a_dialogue_caption_reads_in_the_direction_of_the_line_not_the_speakers_name(story: Fixture,
                                                                                     tmp_path: Path) -> None:
    """"Yuzu: يلوح ... Qiqi تبتسم له." is an Arabic line: every line of its burned captions (the
    SRT's subtitles, in its lines) right to left, the name before it at the right, the name
    "Qiqi" at the right of the line it starts."""
    _needs_fonts()
    face = load_typeface(max(10, min(CAPTION_SIZE) // 24))
    room = CAPTION_SIZE[0] * 0.92 - 2 * max(4, CAPTION_SIZE[1] // 60)
    shown = _filled(ARABIC_WORDS, ARABIC_TAIL, face.width, room, start="Yuzu:")
    line = shown.removeprefix("Yuzu: ")
    first = story.nodes[0]
    story.project.apply(SetDuration(first, 4.0))
    story.project.apply(AddDialogueLine(first, "Yuzu", line))
    branch = collect_branch(story.project, story.leaf)
    timeline = plan_timeline([round(4.0 * FPS), *story.frames[1:]], Fraction(FPS))
    owner, groups = frame_patches(branch, timeline, CAPTION_SIZE, ExportOptions(captions=CaptionMode.BURN))
    srt = export_branch(story.project, story.leaf, tmp_path / "said.srt").path.read_text(encoding="utf-8")
    subtitles = ["\n".join(_plain(line) for line in text.split("\n"))
                 for start, _end, text in parse_srt(srt) if start < 4.0 - 1e-6]
    assert ARABIC_TAIL in [line for text in subtitles for line in text.split("\n")], subtitles
    assert " ".join(" ".join(subtitles).split()) == shown
    for (start, _end, _text), text in zip(parse_srt(srt), subtitles, strict=False):
        [caption] = groups[int(owner[round(start * FPS)])]
        assert np.array_equal(caption.rgba, _reference_caption(CAPTION_SIZE, text, rtl=True)), text
        if ARABIC_TAIL in text.split("\n"):
            assert not np.array_equal(caption.rgba, _reference_caption(CAPTION_SIZE, text, rtl=True, direction="ltr"))


# -- storyboard sheets ----------------------------------------------------------------------


def _sheet_story(story: Fixture, paragraphs: dict[str, bool]) -> None:
    """The first turn says the two mixed paragraphs, the second the pure ones."""
    texts = list(paragraphs)
    for node, pair in ((story.nodes[0], texts[:2]), (story.nodes[1], texts[2:])):
        for text in pair:
            story.project.apply(AddDialogueLine(node, "Qiqi", text))


Recorded = list[tuple[float, float, str, float, TextStyle, Colour, str]]


def _record(monkeypatch: pytest.MonkeyPatch, canvas: type[PngPage] | type[PdfSheet]) -> Recorded:
    """Every line ``canvas`` draws: (x, top, text, size, style, colour, align)."""
    calls: Recorded = []
    draw = canvas.text

    def spy(page: PngPage | PdfSheet, x: float, top: float, text: str, size: float, style: TextStyle,
            colour: Colour, align: str = "left") -> None:
        calls.append((x, top, text, size, style, colour, align))
        draw(page, x, top, text, size, style, colour, align=align)  # type: ignore[arg-type]

    monkeypatch.setattr(canvas, "text", spy)
    return calls


def _assert_aligned(calls: Recorded, paragraphs: dict[str, bool]) -> None:
    """Every line of a right-to-left paragraph ends at its box's right edge, and every line
    of a left-to-right one starts at its left edge."""
    box = SHEET.panel(0).text[0]
    for x, _top, text, _size, _style, _colour, align in calls:
        if any(_plain(text) in paragraph for paragraph in paragraphs) and _plain(text):
            rtl = _direction_of(text, paragraphs)
            assert (align, x) == (("right", box.right) if rtl else ("left", box.x)), text


def test_a_png_sheet_draws_and_aligns_each_line_in_its_paragraphs_direction(
        story: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _needs_fonts()
    page = PngPage(SHEET)
    width = SHEET.panel(0).text[0].w
    paragraphs = _paragraphs(lambda text: page.width(text, DIALOGUE_SIZE, TextStyle.REGULAR), width)
    _sheet_story(story, paragraphs)
    calls = _record(monkeypatch, PngPage)
    out = tmp_path / "board.png"
    export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=3))
    _assert_wrapped_as_planned([call[2] for call in calls])
    _assert_aligned(calls, paragraphs)
    with Image.open(out) as image:
        drawn = np.asarray(image.convert("RGB"))
    # every line drawn again by libraqm in the direction it must have, on a white page
    reference = Image.new("RGB", drawn.shape[1::-1], "white")
    draw = ImageDraw.Draw(reference)
    for x, top, text, size, style, colour, align in calls:
        face = page.face(size, style)
        draw.text((page.px(x), page.px(top)), _plain(text), font=face.primary, fill=colour,
                  anchor="ra" if align == "right" else "la",
                  direction="rtl" if _direction_of(text, paragraphs) else "ltr")
    expected = np.asarray(reference)
    for slot in (0, 1):  # the text of the two turns' panels (only text is drawn there)
        box = SHEET.panel(slot).text[0]
        rows = slice(page.px(box.y), page.px(box.bottom))
        columns = slice(page.px(box.x), page.px(box.right) + 1)
        assert np.array_equal(drawn[rows, columns], expected[rows, columns]), f"panel {slot + 1}"


def _letters(text: str) -> Counter[str]:
    """The letters, digits and punctuation of ``text``, unjoined (presentation forms unfolded)."""
    return Counter(char for char in unicodedata.normalize("NFKC", text)
                   if not char.isspace() and char not in BIDI_CONTROLS)


def test_a_pdf_sheet_draws_and_aligns_each_line_in_its_paragraphs_direction(
        story: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _needs_fonts()
    if pdf_fonts().styles[TextStyle.REGULAR] == "Helvetica":
        pytest.skip("needs a TrueType font reportlab can embed (DejaVu Sans)")
    from bidi import get_display  # type: ignore[import-untyped]

    sheet = PdfSheet(tmp_path / "measure.pdf", SHEET, PdfMetadata("measure"))
    paragraphs = _paragraphs(lambda text: sheet.width(text, DIALOGUE_SIZE, TextStyle.REGULAR),
                             SHEET.panel(0).text[0].w)
    _sheet_story(story, paragraphs)
    calls = _record(monkeypatch, PdfSheet)
    out = tmp_path / "board.pdf"
    export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=3))
    lines = [call[2] for call in calls if any(_plain(call[2]) in text for text in paragraphs) and _plain(call[2])]
    _assert_wrapped_as_planned(lines)
    _assert_aligned(calls, paragraphs)
    drawn = "".join(_drawn_strings(out))
    for line in lines:
        base = "R" if _direction_of(line, paragraphs) else "L"
        assert str(get_display(shape_arabic(_plain(line)), base_dir=base)) in drawn, line
    # read back, no letter of the four paragraphs is lost
    pypdf = pytest.importorskip("pypdf")
    text = "".join(page.extract_text() for page in pypdf.PdfReader(str(out)).pages)
    assert not _letters("".join(paragraphs)) - _letters(text)
