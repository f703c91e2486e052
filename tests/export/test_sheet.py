"""Storyboard sheets: PDF page counts (pypdf) and PNG pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from studio.export import ExportFormat, ExportOptions, export_branch
from studio.export.sheet_layout import A4_LANDSCAPE, SheetLayout

from .helpers import Fixture, build

pypdf = pytest.importorskip("pypdf")


@pytest.mark.parametrize(("grid", "pages"), [((2, 1), 2), ((3, 3), 1), ((1, 1), 3), ((2, 2), 1)])
def test_pdf_page_count(story: Fixture, tmp_path: Path, grid: tuple[int, int], pages: int) -> None:
    out = tmp_path / "board.pdf"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(grid=grid))
    assert result.format == ExportFormat.PDF and result.pages == pages
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == pages
    text = reader.pages[-1].extract_text()
    assert "Test Story" in text
    assert f"Page {pages} of {pages}" in text
    assert "Turn 3" in text
    assert "wave 3" in text


def test_pdf_title_and_state_values(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "board.pdf"
    export_branch(story.project, story.leaf, out, options=ExportOptions(grid=(3, 1), sheet_title="Storyboard A"))
    text = pypdf.PdfReader(str(out)).pages[0].extract_text()
    assert "Storyboard A" in text
    # state after turn 1 with deltas (1, -1, 2): 55 / 45 / 60
    for value in ("55", "45", "60", "Stamina", "Social"):
        assert value in text


def test_png_pages(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(grid=(2, 1)))
    assert result.pages == 2
    assert result.paths == (tmp_path / "board-01.png", tmp_path / "board-02.png")
    for path in result.paths:
        with Image.open(path) as image:
            assert image.format == "PNG"
            assert image.size == (1754, 1240)
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".png") == ["board-01.png", "board-02.png"]


def test_single_png_page_keeps_the_name(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(grid=(4, 3)))
    assert result.paths == (out,) and result.pages == 1
    with Image.open(out) as image:
        pixels = image.convert("RGB")
        layout = SheetLayout(A4_LANDSCAPE, 4, 3, aspect=64 / 96)
        poster = layout.inside(layout.cell(1)).poster
        centre = (round((poster.x + poster.w / 2) * 150 / 72), round((poster.y + poster.h / 2) * 150 / 72))
        assert pixels.getpixel(centre) == pytest.approx(story.colours[1], abs=6)


def test_missing_poster_falls_back_to_the_clip(tmp_path: Path) -> None:
    fixture = build(tmp_path)
    try:
        take = fixture.project.tree.selected_take(fixture.nodes[0])
        assert take is not None
        fixture.project.resolve(take.poster_path).unlink()
        out = tmp_path / "board.png"
        export_branch(fixture.project, fixture.leaf, out, options=ExportOptions(grid=(3, 1)))
        layout = SheetLayout(A4_LANDSCAPE, 3, 1, aspect=64 / 96)
        poster = layout.inside(layout.cell(0)).poster
        with Image.open(out) as image:
            centre = (round((poster.x + poster.w / 2) * 150 / 72), round((poster.y + poster.h / 2) * 150 / 72))
            assert image.convert("RGB").getpixel(centre) == pytest.approx(fixture.colours[0], abs=16)
    finally:
        fixture.project.close()


def test_many_turns_fill_many_pages(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=7, frames=[2] * 7)
    try:
        result = export_branch(fixture.project, fixture.leaf, tmp_path / "all.pdf", options=ExportOptions(grid=(3, 2)))
        assert result.pages == 2
        reader = pypdf.PdfReader(str(result.path))
        assert len(reader.pages) == 2
        assert "Turn 7" in reader.pages[1].extract_text()
        assert "Turn 7" not in reader.pages[0].extract_text()
    finally:
        fixture.project.close()
