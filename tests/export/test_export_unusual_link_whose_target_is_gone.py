"""An --out (or the SRT beside a video, or a sheet's page) that is a symbolic link whose
target is gone (a link to an episode on a drive that is not mounted now) was taken for
nothing there: the export replaced the link without --force. It is now something the export
would replace, as a file or a working link is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.cli import main
from studio.export.options import existing_outputs

from .helpers import Fixture


def _dangling(path: Path, tmp_path: Path) -> str:
    target = tmp_path / "unmounted" / path.name
    os.symlink(target, path)
    assert path.is_symlink() and not path.exists()
    return os.readlink(path)


def test_a_dangling_link_is_listed_as_replaced(tmp_path: Path) -> None:
    video, captions, page = tmp_path / "ep.mp4", tmp_path / "ep.srt", tmp_path / "board-02.png"
    for path in (video, captions, page):
        _dangling(path, tmp_path)
    assert existing_outputs(video, captions="srt") == [video, captions]
    assert existing_outputs(tmp_path / "board.png", pages=2) == [page]


def test_a_folder_link_is_no_file_to_replace(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    os.symlink(tmp_path / "folder", tmp_path / "ep.mp4")
    assert existing_outputs(tmp_path / "ep.mp4") == []


def test_export_keeps_the_link_without_force(story: Fixture, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "latest.srt"
    target = _dangling(out, tmp_path)
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "-q"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert out.is_symlink() and os.readlink(out) == target
    assert main(["export", str(story.project.path), "--leaf", story.leaf, "--out", str(out), "-q", "-f"]) == 0
    assert out.is_file() and "-->" in out.read_text(encoding="utf-8")
