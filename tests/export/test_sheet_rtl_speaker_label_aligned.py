"""On a storyboard sheet, an Arabic or Hebrew speaker's name over a line of dialogue in that
script is aligned right, with the line under it, in PDF and PNG sheets alike.

Labels were placed apart from their text, always at the column's left edge: the name of a
right-to-left speaker sat at the left while their line began at the right. A label follows its
line's direction, not its own script: a Latin "QIQI" over an Arabic line is at the right too,
and a right-to-left name over a line in English stays left.

The positions come from the real sheets: the layout the export draws, the PDF's text read back
with pypdf, the PNG's ink."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core import AddDialogueLine
from studio.export import ExportOptions, export_branch
from studio.export.branch import collect_branch
from studio.export.sheet_pdf import PdfMetadata, PdfSheet
from studio.export.sheet_png import DPI, PngPage
from studio.export.storyboard import LINE, Measure, PlacedLine, StoryboardLayout, TextStyle, lay_out_sheet

from .helpers import SIZE, Fixture, needs_rtl_font

HEBREW_NAME = "נועה"
HEBREW_LINE = "שלום חבר שלי, מה שלומך היום?"
ARABIC_NAME = "يوزو"
ARABIC_LINE = "مرحبا يا صديقتي"
LATIN_LINE = "See you tomorrow!"
LAYOUT = StoryboardLayout(3, SIZE[1] / SIZE[0])  # the fixture's clips are 96 x 64


def _say(story: Fixture) -> None:
    first = story.nodes[0]
    story.project.apply(AddDialogueLine(first, HEBREW_NAME, HEBREW_LINE))
    story.project.apply(AddDialogueLine(first, "Qiqi", ARABIC_LINE))
    story.project.apply(AddDialogueLine(first, ARABIC_NAME, LATIN_LINE))
    story.project.apply(AddDialogueLine(first, ARABIC_NAME, ARABIC_LINE))


def _first_panel(story: Fixture, measure: Measure) -> list[PlacedLine]:
    branch = collect_branch(story.project, story.leaf)
    return list(lay_out_sheet(LAYOUT, list(branch.turns), measure)[0][0].lines)


def _labels_and_lines(lines: list[PlacedLine]) -> list[tuple[PlacedLine, PlacedLine]]:
    """Each dialogue label with the first line under it."""
    return [(label, line) for label, line in itertools.pairwise(lines)
            if label.style is TextStyle.BOLD and line.style is not TextStyle.BOLD and label.text != "ACTION"]


def _check_layout(lines: list[PlacedLine]) -> None:
    box = LAYOUT.panel(0).text[0]
    pairs = {(label.text, line.text): label for label, line in _labels_and_lines(lines)}
    hebrew = pairs[HEBREW_NAME, next(text for name, text in pairs if name == HEBREW_NAME)]
    arabic = pairs[ARABIC_NAME, ARABIC_LINE]
    for label in (hebrew, arabic, pairs["QIQI", ARABIC_LINE]):  # a right-to-left line, whatever the name
        assert (label.align, label.x) == ("right", pytest.approx(box.right))
    label = pairs[ARABIC_NAME, LATIN_LINE]  # a Latin line
    assert (label.align, label.x) == ("left", pytest.approx(box.x))
    for label, line in _labels_and_lines(lines):  # a right-aligned label ends where its line does
        if label.align == "right":
            assert line.align == "right" and label.x == pytest.approx(line.x)


def test_pdf_sheet_aligns_a_right_to_left_name_with_its_line(story: Fixture, tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    needs_rtl_font()
    _say(story)
    out = tmp_path / "board.pdf"
    export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=3))
    _check_layout(_first_panel(story, PdfSheet(tmp_path / "m.pdf", LAYOUT, PdfMetadata("m")).width))
    box = LAYOUT.panel(0).text[0]
    starts: list[tuple[str, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], _font: object, _size: float) -> None:
        if text.strip():
            starts.append((text.strip(), cm[4] + tm[4] * cm[0]))

    pypdf.PdfReader(str(out)).pages[0].extract_text(visitor_text=visit)
    middle = box.x + box.w / 2
    hebrew_label = [x for text, x in starts if set(text) == set(HEBREW_NAME)]
    assert hebrew_label and all(x > middle for x in hebrew_label), (hebrew_label, middle, starts)
    qiqi = [x for text, x in starts if text == "QIQI"]  # over an Arabic line
    assert qiqi and all(x > middle for x in qiqi), (qiqi, middle)


def test_png_sheet_aligns_a_right_to_left_name_with_its_line(story: Fixture, tmp_path: Path) -> None:
    needs_rtl_font()
    _say(story)
    out = tmp_path / "board.png"
    export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=3))
    page = PngPage(LAYOUT)
    lines = _first_panel(story, page.width)
    _check_layout(lines)
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

    labels = [label for label, _ in _labels_and_lines(lines)]
    assert all(label.size == pytest.approx(labels[0].size) for label in labels)
    hebrew = next(label for label in labels if label.text == HEBREW_NAME)
    first, last = ink(hebrew)
    width = page.width(HEBREW_NAME, hebrew.size, TextStyle.BOLD)
    assert box.right - last < 2 and first > box.right - width - 3, (first, last, box.right, width)
    qiqi = next(label for label in labels if label.text == "QIQI")  # over an Arabic line
    first, last = ink(qiqi)
    assert box.right - last < 2 and first - box.x > box.w / 2
