"""``verify_media`` checks that the files an engine host says it wrote are the project's and
are what it wrote. It reads each one after checking its path: a file replaced right after the
check by a link to a file outside the project, even a byte-for-byte copy of what was written
(which reading it would accept), is refused. Files written as usual are verified as before."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from studio.core import StateDeltas
from studio.engines.base import Clip, Prediction
from studio.storage import Project
from studio.storage.media import probe
from studio.worker.host_job import MediaFile
from studio.worker.results import verify_media, write_media_files


def _written(project: Project) -> tuple[MediaFile, MediaFile, MediaFile]:
    prediction = Prediction(StateDeltas(1, -1, 2), 1, np.zeros((4, 8), dtype=np.float32))
    frames = np.full((6, 64, 96, 3), 150, dtype=np.uint8)
    return write_media_files(project.path, project.take_media_dir("t1"), prediction, Clip(frames, 8))


def _swap_after_check(project: Project, monkeypatch: pytest.MonkeyPatch, rel: str, target: Path) -> list[str]:
    """Make the path check (``project.resolve``) of ``rel`` replace that file with a link to
    ``target`` right after it returns."""
    swapped: list[str] = []
    check = project.resolve

    def check_then_swap(path_rel: str) -> Path:
        path = check(path_rel)
        if path_rel == rel and not swapped:
            swapped.append(path_rel)
            path.unlink()
            os.symlink(target, path)
        return path

    monkeypatch.setattr(project, "resolve", check_then_swap)
    return swapped


@pytest.mark.parametrize("which", [0, 1, 2], ids=["representation", "clip", "poster"])
def test_a_file_swapped_for_a_link_after_the_check_is_refused(project: Project, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch, which: int) -> None:
    files = _written(project)
    rel = files[which].path
    copy = tmp_path / "elsewhere.bin"
    copy.write_bytes((project.path / rel).read_bytes())  # the same bytes: read, they would pass
    swapped = _swap_after_check(project, monkeypatch, rel, copy)
    wrong = verify_media(project, files)
    assert swapped == [rel]
    assert wrong == f"The engine host's file {rel} was replaced by a link to a file outside the project."


def test_files_written_as_usual_are_verified(project: Project) -> None:
    files = _written(project)
    assert verify_media(project, files) == ""
    clip = project.path / files[1].path
    assert files[1].size == clip.stat().st_size and probe(clip).frames == 6
    clip.write_bytes(clip.read_bytes()[:-10])
    assert "not what it wrote" in verify_media(project, files)
    clip.unlink()
    assert verify_media(project, files) == f"The engine host's file {files[1].path} is missing."


def test_a_file_named_outside_the_project_is_refused(project: Project) -> None:
    files = _written(project)
    outside = MediaFile(path="../elsewhere.bin", size=1, sha256="0" * 64)
    assert "outside the project" in verify_media(project, (*files, outside))
