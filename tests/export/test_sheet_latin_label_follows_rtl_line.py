"""On a storyboard sheet, a speaker's name in Latin letters over a line of dialogue in Arabic
or Hebrew ("AOI" over "مرحبا") is aligned right, with the line it labels, in PDF and PNG
sheets alike; over a line in English it stays at the left.

The label used to follow its own script: a Latin name stayed at the left edge while its line
began at the right edge, so the name no longer sat over the line it names.

The positions come from the real sheets: where the PDF's text operators start each string
(read back with pypdf), and the ink in the PNG."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core import AddDialogueLine
from studio.export import ExportOptions, export_branch
from studio.export.branch import collect_branch
from studio.export.sheet_pdf import PdfMetadata, PdfSheet
from studio.export.sheet_png import DPI, PngPage
from studio.export.storyboard import LINE, PlacedLine, StoryboardLayout, TextStyle, lay_out_sheet

from .helpers import SIZE, Fixture, needs_rtl_font

SPEAKER = "Aoi"
LABEL = SPEAKER.upper()
ARABIC_LINE = "مرحبا يا صديقتي"
HEBREW_LINE = "שלום חבר שלי"
LATIN_LINE = "See you tomorrow!"
LAYOUT = StoryboardLayout(3, SIZE[1] / SIZE[0])  # the fixture's clips are 96 x 64


def _say(story: Fixture) -> None:
    """Aoi speaks in Arabic, in Hebrew, then in English, in the first turn."""
    for text in (ARABIC_LINE, HEBREW_LINE, LATIN_LINE):
        story.project.apply(AddDialogueLine(story.nodes[0], SPEAKER, text))


def _labels(story: Fixture, sheet_width: object) -> list[PlacedLine]:
    """Aoi's three labels as the export lays them out, top to bottom."""
    branch = collect_branch(story.project, story.leaf)
    lines = lay_out_sheet(LAYOUT, list(branch.turns), sheet_width)[0][0].lines  # type: ignore[arg-type]
    labels = [line for line in lines if line.text == LABEL]
    assert len(labels) == 3, [line.text for line in lines]
    return labels


def test_pdf_sheet_puts_a_latin_name_over_a_right_to_left_line_at_the_right(story: Fixture, tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    needs_rtl_font()
    _say(story)
    out = tmp_path / "board.pdf"
    export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=3))
    measure = PdfSheet(tmp_path / "m.pdf", LAYOUT, PdfMetadata("m")).width
    box = LAYOUT.panel(0).text[0]
    starts: list[tuple[float, float]] = []  # (x, baseline y) of each "AOI" drawn

    def visit(text: str, cm: list[float], tm: list[float], _font: object, _size: float) -> None:
        if text.strip() == LABEL:
            starts.append((cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3]))

    pypdf.PdfReader(str(out)).pages[0].extract_text(visitor_text=visit)
    assert len(starts) == 3, starts
    arabic, hebrew, latin = sorted(starts, key=lambda start: -start[1])  # PDF y grows upwards
    size = _labels(story, measure)[0].size
    width = measure(LABEL, size, TextStyle.BOLD)
    for x, _ in (arabic, hebrew):  # the label ends at the column's right edge, where its line begins
        assert x + width == pytest.approx(box.right, abs=0.5), (x, width, box.right)
    assert latin[0] == pytest.approx(box.x, abs=0.5)


def test_png_sheet_puts_a_latin_name_over_a_right_to_left_line_at_the_right(story: Fixture, tmp_path: Path) -> None:
    needs_rtl_font()
    _say(story)
    out = tmp_path / "board.png"
    export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=3))
    labels = _labels(story, PngPage(LAYOUT).width)
    box = LAYOUT.panel(0).text[0]
    scale = DPI / 72
    with Image.open(out) as image:
        pixels = np.asarray(image.convert("L"))

    def ink(label: PlacedLine) -> tuple[float, float]:
        """The first and last column of ink in the label's band, in points."""
        band = pixels[round(label.top * scale):round((label.top + label.size * LINE) * scale),
                      round(box.x * scale):round(box.right * scale)]
        found = np.flatnonzero((band < 200).any(axis=0))
        assert found.size, f"{label.text!r} is not drawn"
        return box.x + found[0] / scale, box.x + found[-1] / scale

    arabic, hebrew, latin = labels
    for label in (arabic, hebrew):
        first, last = ink(label)
        assert box.right - last < 2 and first > box.x + box.w / 2, (first, last, box.x, box.right)
    first, last = ink(latin)
    assert first - box.x < 2 and last < box.x + box.w / 2, (first, last, box.x, box.right)
