"""Storyboard sheets: layouts, page counts and full text (pypdf), PNG pages, and the sample
story's PDF rendered by poppler's pdftoppm and checked panel by panel."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core import AddDialogueLine, SetDuration, SetNarration, SetShotNotes
from studio.export import ExportFormat, ExportOptions, export_branch
from studio.export.options import PanelAspect
from studio.export.storyboard import WIDE, Colour, StoryboardLayout, TextStyle

from .helpers import Fixture, build

pypdf = pytest.importorskip("pypdf")
LONG_LINE = ("I promised the baker I would bring the cake to the clock tower before noon, and I will, even if "
             "the wind blows me all the way to the sea and back again!")


def _text(path: Path) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(str(path)).pages]


@pytest.mark.parametrize(("panels", "pages", "size"), [(1, 3, (842, 595)), (2, 2, (842, 595)), (3, 1, (595, 842))])
def test_pdf_layouts_page_counts_and_orientation(story: Fixture, tmp_path: Path, panels: int, pages: int,
                                                 size: tuple[int, int]) -> None:
    out = tmp_path / "board.pdf"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=panels))
    assert result.format == ExportFormat.PDF and result.pages == pages
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == pages
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size
    text = _text(out)[-1]
    assert "Test Story" in text and f"Page {pages} of {pages}" in text and "Turn 3" in text
    assert "Qiqi gently waves 3 in the town, by day." in text
    assert "Character:" not in text


def test_pdf_holds_the_full_text_of_every_field(story: Fixture, tmp_path: Path) -> None:
    first = story.nodes[0]
    story.project.apply(AddDialogueLine(first, "Qiqi", LONG_LINE))
    story.project.apply(AddDialogueLine(first, "Mei", "Good luck!"))
    story.project.apply(SetNarration(first, "Koriko wakes up under a sky without clouds."))
    story.project.apply(SetShotNotes(first, "Wide shot, slow pan left to the tower."))
    story.project.apply(SetDuration(first, 2.5))
    for panels in (1, 2, 3):
        out = tmp_path / f"full-{panels}.pdf"
        export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=panels,
                                                                             sheet_title="Storyboard A"))
        text = _text(out)[0]
        for expected in ("Storyboard A", LONG_LINE, "QIQI", "MEI", "Good luck!", "NARRATION",
                         "Koriko wakes up under a sky without clouds.", "SHOT NOTES",
                         "Wide shot, slow pan left to the tower.", "Turn 1 · Qiqi · 2.5 s", "Stamina 55 (+5)",
                         "Social 45 (-5)", "Fun 60 (+10)", "Qiqi gently waves 1 in the town, by day."):
            assert expected in text, (panels, expected)


@pytest.mark.parametrize("panels", [1, 3])
def test_many_dialogue_lines_flow_on_and_none_is_lost(story: Fixture, tmp_path: Path, panels: int) -> None:
    """Lines that one panel has no room for go on in a continuation panel (they used to be
    left out, a line counting them): every line is on the sheet, in order."""
    first = story.nodes[0]
    for index in range(1, 11):
        story.project.apply(AddDialogueLine(first, "Qiqi", f"line number {index} of the long talk"))
    out = tmp_path / f"talk-{panels}.pdf"
    export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=panels))
    text = _text(out)[0]
    assert panels != 1 or all(f"line number {index} of the long talk" in text for index in range(1, 11)), \
        "a page of one panel has room for every line"
    story.project.apply(SetNarration(first, "The town wakes up."))
    story.project.apply(SetShotNotes(first, "Wide shot, slow pan."))
    for _ in range(30):
        story.project.apply(AddDialogueLine(first, "Mei", "and again, and again, and again, and again"))
    for count in (1, 2, 3):
        result = export_branch(story.project, story.leaf, tmp_path / f"long{count}.pdf",
                               options=ExportOptions(panels_per_page=count))
        pages = _text(tmp_path / f"long{count}.pdf")
        whole = " ".join(pages)
        assert "more dialogue line" not in whole, count
        assert whole.count("and again, and again, and again, and again") == 30, count
        spots = [whole.index(f"line number {index} of the long talk") for index in range(1, 11)]
        assert spots == sorted(spots), count
        for kept in ("Wide shot, slow pan.", "ACTION", "STATE"):
            assert kept in pages[0], (count, kept)  # what is seen stays beside the picture
        assert "The town wakes up." in whole, count
        assert "Turn 1 (continued)" in whole and f"Page {result.pages} of {result.pages}" in pages[-1], count


def _page_png(pdf: Path, page: int, tmp_path: Path, dpi: int = 72) -> np.ndarray:
    prefix = tmp_path / f"{pdf.stem}-p{page}"
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", str(pdf),
                    str(prefix)], check=True, capture_output=True, timeout=60)
    with Image.open(prefix.with_suffix(".png")) as image:
        return np.asarray(image.convert("RGB"))


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils (pdftoppm)")
@pytest.mark.parametrize("panels", [1, 2, 3])
def test_rendered_pdf_shows_each_panels_picture_where_the_layout_puts_it(story: Fixture, tmp_path: Path,
                                                                           panels: int) -> None:
    out = tmp_path / "board.pdf"
    result = export_branch(story.project, story.leaf, out,
                           options=ExportOptions(panels_per_page=panels, panel_aspect=PanelAspect.WIDE))
    layout = StoryboardLayout(panels, WIDE)
    for page in range(result.pages):
        pixels = _page_png(out, page + 1, tmp_path)
        for slot in range(min(panels, 3 - page * panels)):
            box = layout.panel(slot).picture
            centre = pixels[round(box.y + box.h / 2), round(box.x + box.w / 2)]
            colour = story.colours[page * panels + slot]
            assert np.abs(centre.astype(int) - colour).max() <= 24, (page, slot, centre, colour)
            assert box.w >= (500 if panels == 1 else 370 if panels == 2 else 290)  # large panels


def test_png_pages_and_the_clip_aspect(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    result = export_branch(story.project, story.leaf, out,
                           options=ExportOptions(panels_per_page=2, panel_aspect=PanelAspect.CLIP))
    assert result.pages == 2
    assert result.paths == (tmp_path / "board-01.png", tmp_path / "board-02.png")
    layout = StoryboardLayout(2, 64 / 96)
    box = layout.panel(1).picture
    assert box.h / box.w == pytest.approx(64 / 96)
    with Image.open(result.paths[0]) as image:
        assert image.format == "PNG" and image.size == (1754, 1240)
        centre = (round((box.x + box.w / 2) * 150 / 72), round((box.y + box.h / 2) * 150 / 72))
        assert image.convert("RGB").getpixel(centre) == pytest.approx(story.colours[1], abs=6)
    assert not out.exists()


def test_missing_poster_falls_back_to_the_clip(tmp_path: Path) -> None:
    fixture = build(tmp_path)
    try:
        take = fixture.project.tree.selected_take(fixture.nodes[0])
        assert take is not None
        fixture.project.resolve(take.poster_path).unlink()
        out = tmp_path / "board.png"
        export_branch(fixture.project, fixture.leaf, out, options=ExportOptions(panels_per_page=3))
        box = StoryboardLayout(3, 64 / 96).panel(0).picture
        with Image.open(out) as image:
            centre = (round((box.x + box.w / 2) * 150 / 72), round((box.y + box.h / 2) * 150 / 72))
            assert image.convert("RGB").getpixel(centre) == pytest.approx(fixture.colours[0], abs=16)
    finally:
        fixture.project.close()


def test_many_turns_fill_many_pages(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=7, frames=[2] * 7)
    try:
        result = export_branch(fixture.project, fixture.leaf, tmp_path / "all.pdf",
                               options=ExportOptions(panels_per_page=3))
        assert result.pages == 3
        pages = _text(result.path)
        assert "Turn 7" in pages[2] and "Turn 7" not in pages[1]
        assert "Page 3 of 3" in pages[2]
    finally:
        fixture.project.close()


@pytest.mark.parametrize("panels", [1, 2, 3])
def test_long_titles_headings_and_names_stay_on_the_page(story: Fixture, panels: int) -> None:
    """The sheet's title, a turn's heading (a long character name) and the footer's project name
    are cut with "…" where they would run off the page or into the page number."""
    from dataclasses import replace

    from studio.export.branch import collect_branch
    from studio.export.sheet_png import PngPage
    from studio.export.storyboard import MARGIN, draw_page, lay_out_sheet

    branch = collect_branch(story.project, story.leaf)
    long_name = "Princess Kaguya of the Bamboo Forest and the Moon Palace " * 3
    turns = [replace(turn, character=long_name) for turn in branch.turns[:panels]]
    branch = replace(branch, project_name="寿限無寿限無五劫の擦り切れ海砂利水魚" * 4)
    layout = StoryboardLayout(panels, 9 / 16)
    drawn: list[tuple[float, str, float, str]] = []

    class Recording(PngPage):
        def text(self, x: float, top: float, text: str, size: float, style: TextStyle, colour: Colour,
                 align: str = "left") -> None:
            drawn.append((x, text, self.width(text, size, style), align))

    canvas = Recording(layout, dpi=72)
    pictures = [Image.new("RGB", (96, 54), "grey")] * len(turns)
    first_page = lay_out_sheet(layout, turns, canvas.width)[0]
    draw_page(canvas, layout, branch, "A very long storyboard title " * 6, 1, 1, first_page, list(pictures))
    width = layout.page[0]
    for x, text, w, align in drawn:
        left, right = (x - w, x) if align == "right" else (x, x + w)
        assert left >= MARGIN - 0.5 and right <= width - MARGIN + 0.5, (text, left, right)
    footer = [(x, w) for x, text, w, _ in drawn if text.startswith("寿限無")]
    label = [(x, w) for x, text, w, _ in drawn if text == "Page 1 of 1"]
    assert footer and label and footer[0][0] + footer[0][1] < label[0][0] - label[0][1]
    assert any(text.startswith("Turn 1 · Princess") and text.endswith("…") for _, text, _, _ in drawn)
