"""`kamishibai export x.png` lays the sheet out once: the pages are counted (a second layout)
only where a file of the sheet's names is there to replace, which the count decides."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.export import sheet

from .helpers import Fixture


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = sheet.sheet_page_total

    def counting(*args: object, **kwargs: object) -> int:
        pages = real(*args, **kwargs)  # type: ignore[arg-type]
        calls.append(pages)
        return pages

    monkeypatch.setattr(sheet, "sheet_page_total", counting)
    return calls


def _args(story: Fixture, out: Path, *more: str) -> list[str]:
    return ["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "--panels", "1", "-q", *more]


def test_a_sheet_into_a_folder_without_its_names_is_not_counted_first(story: Fixture, tmp_path: Path,
                                                                       counted: list[int]) -> None:
    (tmp_path / "board-notes.txt").write_text("not a page")
    (tmp_path / "other-01.png").write_bytes(b"another sheet's page")
    assert main(_args(story, tmp_path / "board.png")) == 0
    assert counted == [], "no file of the sheet's names: nothing to count before writing"
    assert (tmp_path / "board-01.png").read_bytes()[:4] == b"\x89PNG"


def test_forced_exports_are_not_counted_first(story: Fixture, tmp_path: Path, counted: list[int]) -> None:
    (tmp_path / "board-01.png").write_bytes(b"an earlier page")
    assert main(_args(story, tmp_path / "board.png", "--force")) == 0
    assert counted == []
    assert (tmp_path / "board-01.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("stray", ["board-03.png", "BOARD-03.PNG", "board.png"])
def test_a_file_of_the_sheets_names_is_counted_and_kept(story: Fixture, tmp_path: Path, counted: list[int],
                                                        stray: str, capsys: pytest.CaptureFixture[str]) -> None:
    there = tmp_path / stray
    there.write_bytes(b"kept")
    case_blind = (tmp_path / stray.lower()).exists()  # a folder that doesn't tell case apart
    status = main(_args(story, tmp_path / "board.png"))
    assert len(counted) == 1, "the pages were counted to know what the export writes"
    if stray != stray.lower() and not case_blind:  # another name here: written beside it
        assert status == 0
    else:
        assert status == 2 and "--force" in capsys.readouterr().err
    assert there.read_bytes() == b"kept"
