"""Which files an export would replace or remove: the check made before anything is written
(the CLI's --force, the window's confirmation)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.export.options import existing_outputs, list_files, png_sheet_files, sheet_page_count
from studio.export.storyboard import WIDE, StoryboardLayout


@pytest.mark.parametrize(("turns", "panels", "pages"), [
    (1, 1, 1), (1, 3, 1), (3, 1, 3), (3, 2, 2), (3, 3, 1), (4, 3, 2), (6, 3, 2), (7, 2, 4), (250, 1, 250),
])
def test_sheet_page_count_is_the_writers_count(turns: int, panels: int, pages: int) -> None:
    assert sheet_page_count(turns, panels) == pages
    for aspect in (WIDE, 64 / 96, 2.0):  # the panels' shape changes the pictures, not the count
        assert StoryboardLayout(panels, aspect).pages(turns) == pages


def test_png_sheet_files_name_every_page() -> None:
    out = Path("/exports/board.png")
    assert png_sheet_files(out, 1) == [out]
    assert [path.name for path in png_sheet_files(out, 3)] == ["board-01.png", "board-02.png", "board-03.png"]
    hundred = png_sheet_files(out, 100)
    assert (hundred[0].name, hundred[-1].name) == ("board-001.png", "board-100.png")


def test_a_later_page_without_the_first_is_found(tmp_path: Path) -> None:
    """QA's case: board-02.png of another export is there, board-01.png is not."""
    out = tmp_path / "board.png"
    stray = tmp_path / "board-02.png"
    stray.write_bytes(b"page 2 of another export")
    assert existing_outputs(out, "png", pages=2) == [stray]
    assert existing_outputs(out, "png", pages=3) == [stray]
    assert existing_outputs(out, "png", pages=1) == [], "a one-page sheet writes board.png only"
    (tmp_path / "board-100.png").write_bytes(b"page 100")
    assert existing_outputs(out, "png", pages=100) == [tmp_path / "board-100.png"], "three digits from 100 pages"


def test_an_earlier_sheets_pages_are_found_whatever_this_one_writes(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    earlier = [tmp_path / f"board-{page:02d}.png" for page in range(1, 6)]
    for page in earlier:
        page.write_bytes(b"an earlier page")
    (tmp_path / "board-2024.png").write_bytes(b"a photo, not a page")
    assert existing_outputs(out, "png", pages=2) == earlier, "02..05 are replaced or removed"
    assert existing_outputs(out, "png", pages=1) == earlier, "one page (board.png) removes all five"
    out.write_bytes(b"an earlier one-page sheet")
    assert existing_outputs(out, "png", pages=2) == [*earlier, out], "a sheet of pages removes board.png"
    assert existing_outputs(out, "png", pages=1) == [*earlier, out]


def test_a_png_sheet_needs_its_page_count(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="page count"):
        existing_outputs(tmp_path / "board.png", "png")
    assert existing_outputs(tmp_path / "board.pdf") == [], "other formats don't"


def test_list_files_names_each_file_up_to_a_limit() -> None:
    paths = [Path(f"/x/board-{page:02d}.png") for page in range(1, 13)]
    assert list_files(paths[:3]) == "board-01.png, board-02.png, board-03.png"
    assert list_files(paths) == ", ".join(path.name for path in paths[:10]) + " and 2 more"
