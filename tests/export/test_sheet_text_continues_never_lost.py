"""A script-heavy turn on a storyboard sheet: its text used to shrink, flow into the next
column, then lose dialogue lines and the end of its narration. What its panel has no room
for now goes on in continuation panels headed "Turn 2 (continued)", on the same page or the
next, in PDF and PNG sheets and all three layouts; the later turns move on, every page says
"Page N of M" with the true M, and no word is lost. Read back from real PDF files (pypdf)
and PNG pages."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core import AddDialogueLine, SetDialogue, SetNarration, SetShotNotes
from studio.export import ExportFormat, ExportOptions, export_branch
from studio.export.branch import collect_branch
from studio.export.options import PanelAspect, existing_outputs, sheet_page_count
from studio.export.sheet import sheet_page_total
from studio.export.storyboard import WIDE, StoryboardLayout

from .helpers import Fixture

pypdf = pytest.importorskip("pypdf")
SENTENCE = "The wind off the harbour tugs at her hat as she runs past the bakery. "
LINES = [f"Line {index} of the long talk on the bridge, said slowly and with feeling." for index in range(1, 41)]


def _script_heavy(story: Fixture) -> None:
    """The second of the story's three turns gets 40 dialogue lines, a long narration and notes."""
    middle = story.nodes[1]
    for text in LINES:
        story.project.apply(AddDialogueLine(middle, "Mei", text))
    story.project.apply(SetNarration(middle, SENTENCE * 45))
    story.project.apply(SetShotNotes(middle, "Wide shot, slow pan from the harbour to the tower."))


def _pages(path: Path) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(str(path)).pages]


@pytest.mark.parametrize("panels", [1, 2, 3])
def test_pdf_sheet_keeps_every_word_and_counts_its_pages(story: Fixture, tmp_path: Path, panels: int) -> None:
    _script_heavy(story)
    out = tmp_path / "sheet ü 1" / "board.pdf"
    out.parent.mkdir()
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=panels))
    pages = _pages(out)
    total = len(pages)
    assert result.pages == total > sheet_page_count(3, panels)  # continuation panels add pages
    for number, text in enumerate(pages, 1):
        assert f"Page {number} of {total}" in text, number
    whole = " ".join(pages)
    for text in LINES:
        assert whole.count(text) == 1, text
    for word in ("wind", "harbour", "bakery."):
        assert whole.count(word) == 45 + (word == "harbour"), word  # the shot notes name the harbour too
    assert "more dialogue line" not in whole and "more line" not in whole
    heading = whole.index("Turn 2 · Qiqi")
    continued = [at for at in range(len(whole)) if whole.startswith("Turn 2 (continued) · Qiqi", at)]
    assert continued and heading < continued[0]
    assert continued[-1] < whole.index("Turn 3 · Qiqi")  # the next turn comes after all of it
    main_page = next(text for text in pages if "Turn 2 · Qiqi" in text)
    assert "ACTION" in main_page and "SHOT NOTES" in main_page and "continued" in main_page
    assert sheet_page_total(collect_branch(story.project, story.leaf), ExportOptions(panels_per_page=panels),
                            ExportFormat.PDF) == total


@pytest.mark.parametrize("panels", [1, 2, 3])
def test_png_sheet_writes_every_page_and_draws_continuations_without_a_picture(story: Fixture, tmp_path: Path,
                                                                                 panels: int) -> None:
    _script_heavy(story)
    out = tmp_path / "board.png"
    options = ExportOptions(panels_per_page=panels, panel_aspect=PanelAspect.WIDE)
    branch = collect_branch(story.project, story.leaf)
    expected = sheet_page_total(branch, options)
    result = export_branch(story.project, story.leaf, out, options=options)
    assert result.pages == expected > sheet_page_count(3, panels)
    digits = max(2, len(str(expected)))
    assert [path.name for path in result.paths] == [f"board-{page:0{digits}d}.png" for page in range(1, expected + 1)]
    assert sorted(tmp_path.glob("board*.png")) == list(result.paths) and not out.exists()
    layout = StoryboardLayout(panels, WIDE)
    scale = 150 / 72
    pictures = 0
    for path in result.paths:
        with Image.open(path) as image:
            assert image.size == (round(layout.page[0] * scale), round(layout.page[1] * scale))
            pixels = np.asarray(image.convert("RGB")).astype(int)
        for slot in range(panels):
            box = layout.panel(slot).picture
            centre = pixels[round((box.y + box.h / 2) * scale), round((box.x + box.w / 2) * scale)]
            colour = [abs(centre - np.array(c)).max() <= 24 for c in story.colours]
            pictures += any(colour)
    assert pictures == 3  # each turn's picture once; continuation panels have none
    # the replace check, given the true count, names every page this export wrote
    assert existing_outputs(out, "png", pages=expected) == list(result.paths)


def test_a_lighter_sheet_over_a_heavy_one_removes_its_extra_pages(story: Fixture, tmp_path: Path) -> None:
    _script_heavy(story)
    out = tmp_path / "board.png"
    heavy = export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=1))
    assert heavy.pages > 3
    story.project.apply(SetNarration(story.nodes[1], ""))
    story.project.apply(SetDialogue(story.nodes[1], ()))
    light = export_branch(story.project, story.leaf, out, options=ExportOptions(panels_per_page=1))
    assert light.pages == 3
    assert sorted(tmp_path.glob("board*.png")) == list(light.paths)
    assert [path.name for path in light.paths] == ["board-01.png", "board-02.png", "board-03.png"]
