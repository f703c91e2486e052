"""`kamishibai sketch-sheet OUT` where OUT names no file: an empty OUT (an unset shell
variable) said "Can't write .: a folder of that name exists", a blank one suggested "for
example    .png", and `motions.png/` (a folder, by its slash, as `export --out` reads it)
wrote a file motions.png. Each is refused now, as `export --out` refuses it, and nothing is
written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main


@pytest.mark.parametrize(("out", "said"), [
    ("", "The sheet's file name is empty."),
    ("   ", "The sheet's file name is empty (it holds only spaces)."),
    ("motions.png/", "motions.png/ ends with a slash: it names a folder"),
])
def test_an_out_that_names_no_file_is_refused_and_nothing_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        out: str, said: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["sketch-sheet", out]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"kamishibai: error: {said}" in err, err
    assert "a folder of that name exists" not in err and "for example    .png" not in err
    assert os.listdir(tmp_path) == []


def test_a_png_name_still_writes_the_sheet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["sketch-sheet", "motions.png"]) == 0
    assert capsys.readouterr().out.strip() == "motions.png"
    assert (tmp_path / "motions.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
