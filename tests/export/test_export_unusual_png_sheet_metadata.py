"""PNG storyboard pages record their resolution and say what they are.

The pages are drawn at 150 dpi (an A4 page is 1240x1754 pixels) but recorded no resolution,
so viewers and printers took them for 72 dpi and printed a page at about twice A4; and
unlike a PDF sheet they held no title, so a folder of pages from several stories could not
be told apart by a file browser's or image viewer's properties. A page now holds its
resolution and the PDF's title (with its page number when there are several), description,
author and software, in UTF-8, a Japanese title included."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from studio.core import SetNarration
from studio.export import ExportOptions, export_branch

from .helpers import Fixture

A4_MM = (210.0, 297.0)


def _printed_mm(path: Path) -> tuple[float, float]:
    with Image.open(path) as image:
        dpi_x, dpi_y = image.info["dpi"]
        return image.width / dpi_x * 25.4, image.height / dpi_y * 25.4


def test_a_page_prints_at_a4(story: Fixture, tmp_path: Path) -> None:
    out = export_branch(story.project, story.leaf, tmp_path / "sheet.png").paths[0]
    width, height = _printed_mm(out)
    assert abs(width - A4_MM[0]) < 1 and abs(height - A4_MM[1]) < 1


def test_a_page_names_its_story_in_utf8(story: Fixture, tmp_path: Path) -> None:
    out = export_branch(story.project, story.leaf, tmp_path / "sheet.png",
                        options=ExportOptions(title="第一話 «Ёлка» & <b>")).paths[0]
    with Image.open(out) as image:
        text = dict(image.text)  # type: ignore[attr-defined]
    assert text["Title"] == "第一話 «Ёлка» & <b>"
    assert "Test Story" in text["Description"] and "3 turns" in text["Description"]
    assert text["Software"].startswith("Kamishibai Studio")


def test_each_page_of_several_says_which_it_is(story: Fixture, tmp_path: Path) -> None:
    long_text = " ".join(["The lane is quiet and the bakery light is on."] * 60)
    for node in story.nodes:
        story.project.apply(SetNarration(node, long_text))
    paths = export_branch(story.project, story.leaf, tmp_path / "sheet.png",
                          options=ExportOptions(panels_per_page=1)).paths
    assert len(paths) > 2
    for number, path in enumerate(paths, start=1):
        with Image.open(path) as image:
            assert image.text["Title"] == f"Test Story (page {number} of {len(paths)})"  # type: ignore[attr-defined]
