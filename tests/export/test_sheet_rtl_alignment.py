"""Right-to-left lines on storyboard sheets are aligned right, as a reader of Arabic or
Hebrew expects (they were drawn from the text box's left edge, like English), while the
section labels and English lines beside them stay left-aligned (a speaker's name goes with
its line). A line's direction is its first
strong letter's, as the reordering takes it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.cli import main
from studio.export.bidi_text import starts_right_to_left
from studio.export.branch import collect_branch
from studio.export.storyboard import LINE, WIDE, StoryboardLayout, TextStyle, set_panel_text

from .helpers import build
from .test_panel_text_fit import assert_inside, column_of, make_turn, metrics  # noqa: F401 (a fixture)

HEBREW = "שלום עולם"
ARABIC = "مرحبا بالعالم"


@pytest.mark.parametrize(("text", "rtl"), [
    (HEBREW, True), (ARABIC, True), ("Hello", False), ("", False), ("123 " + HEBREW, True),
    ("Qiqi: " + HEBREW, False), ("\u2067Qiqi\u2069 " + HEBREW, True), ("« " + ARABIC + " »", True),
])
def test_a_lines_direction_is_its_first_strong_letters(text: str, rtl: bool) -> None:
    assert starts_right_to_left(text) is rtl


def test_panel_lines_align_by_their_direction(metrics) -> None:  # noqa: F811 (the fixture)
    columns = StoryboardLayout(3, WIDE).panel(0).text
    turn = make_turn(dialogue=[ARABIC], narration=HEBREW + " " + HEBREW, notes="Left to right notes.")
    lines, _size = set_panel_text(columns, turn, metrics)
    assert_inside(lines, columns, metrics)
    by_text = {line.text: line for line in lines}
    narration = next(line for line in lines if HEBREW in line.text)
    assert narration.align == "right" and narration.x == pytest.approx(columns[column_of(narration, columns)].right)
    assert by_text["NARRATION"].align == "left" and by_text["SHOT NOTES"].align == "left"
    assert by_text["Left to right notes."].align == "left"
    assert by_text["QIQI"].align == "right"  # a speaker's name goes with their line
    assert all(line.align == ("right" if starts_right_to_left(line.text) else "left") for line in lines
               if line.text != "QIQI")


def _ink_columns(band: np.ndarray) -> np.ndarray:
    return np.flatnonzero((band < 160).any(axis=0))


def test_a_hebrew_narration_is_drawn_against_the_right_edge_of_a_png_sheet(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from studio.export.sheet_png import DPI, PngPage
    from studio.storage import Project

    fixture = build(tmp_path)
    path, node = fixture.project.path, fixture.nodes[0]
    fixture.project.close()
    assert main(["narrate", str(path), node, HEBREW]) == 0
    out = tmp_path / "board.png"
    assert main(["export", str(path), "--leaf", node, "--out", str(out), "--panels", "3", "-q"]) == 0
    capsys.readouterr()
    with Project.open(path) as project:
        turn = next(turn for turn in collect_branch(project, node).turns if turn.node_id == node)
    layout = StoryboardLayout(3, 64 / 96)  # the fixture's clips are 96 x 64
    columns = layout.panel(0).text
    page = PngPage(layout)
    lines, _size = set_panel_text(columns, turn, page.width)
    scale = DPI / 72
    with Image.open(out) as image:
        pixels = np.asarray(image.convert("L"))

    def ink(text: str) -> tuple[float, float, float, float]:
        """The line's ink from its first to its last column, and its text box's edges, in points."""
        line = next(line for line in lines if line.text == text)
        box = columns[column_of(line, columns)]
        band = pixels[round(line.top * scale):round((line.top + line.size * LINE) * scale),
                      round(box.x * scale):round(box.right * scale)]
        found = _ink_columns(band)
        assert found.size, f"{text!r} is not drawn"
        return box.x + found[0] / scale, box.x + found[-1] / scale, box.x, box.right

    first, last, left, right = ink(HEBREW)
    width = page.width(HEBREW, next(line.size for line in lines if line.text == HEBREW), TextStyle.REGULAR)
    assert right - last < 2 and first > left + (right - left - width) - 3, (first, last, left, right)
    first, last, left, right = ink("NARRATION")
    assert first - left < 2 and right - last > (right - left) / 2  # the label stays left


def test_a_right_to_left_title_is_aligned_right_on_a_pdf_sheet(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    pypdf = pytest.importorskip("pypdf")
    fixture = build(tmp_path)
    path, node = fixture.project.path, fixture.nodes[0]
    fixture.project.close()
    assert main(["narrate", str(path), node, HEBREW]) == 0
    out = tmp_path / "board.pdf"
    assert main(["export", str(path), "--leaf", node, "--out", str(out), "--panels", "3", "--title", ARABIC,
                 "-q"]) == 0
    capsys.readouterr()
    page = pypdf.PdfReader(str(out)).pages[0]
    width = float(page.mediabox.width)
    starts: dict[str, float] = {}

    def visit(text: str, cm: list[float], tm: list[float], _font: object, _size: float) -> None:
        if text.strip():
            starts.setdefault(text.strip(), cm[4] + tm[4] * cm[0])

    page.extract_text(visitor_text=visit)
    title = next(x for text, x in starts.items() if any(c in text for c in ARABIC.replace(" ", "")) or
                 any(0xFE70 <= ord(c) <= 0xFEFF for c in text))
    subtitle = next(x for text, x in starts.items() if text.startswith("Branch to"))
    assert title > width / 2 > subtitle, (title, subtitle, width)
