"""`kamishibai export`'s summary shows a path as its error messages do.

A folder whose name is not valid UTF-8 (``bad`` + Latin-1 ``é`` + ``dir``) was printed as
``bad\\udce9dir`` in the summary (Python's surrogate escape, backslash-replaced) but as
``bad\\xe9dir`` in an error: two spellings of one folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from studio.cli import main

from .helpers import Fixture, undecodable_folder

SHOWN = "bad\\xe9dir"


@pytest.fixture
def bad_folder(tmp_path: Path) -> Path:
    return undecodable_folder(tmp_path, b"bad\xe9dir")


@pytest.mark.skipif(sys.platform == "win32", reason="Windows names are UTF-16")
def test_the_summary_escapes_a_folder_name_as_errors_do(story: Fixture, bad_folder: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["export", str(story.project.path), "--leaf", story.leaf, "-q"]
    (bad_folder / "taken.mp4").mkdir()
    assert main([*args, "--out", str(bad_folder / "taken.mp4")]) == 2
    error = capsys.readouterr().err
    assert f"{SHOWN}/taken.mp4: a folder of that name exists" in error, error

    assert main([*args, "--out", str(bad_folder / "episode.mp4"), "--captions", "srt"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith(f"{_shown_folder(bad_folder)}/episode.mp4: 3 turns"), out
    assert lines[1] == f"  also wrote {_shown_folder(bad_folder)}/episode.srt", out
    assert "\\udc" not in out and "\udce9" not in out


def _shown_folder(folder: Path) -> str:
    """``folder`` as the command shows it: its parent is plain text, its own name escaped."""
    return f"{folder.parent}/{SHOWN}"
