"""A project whose ``media`` is a file (copied over the folder, say) opened with no problem
listed, and every generation then failed with "Can't write representation.safetensors: Not a
directory.", naming neither media/ nor what to do. Opening now lists it, and the write error
names the file in the way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.storage import Project
from studio.storage.errors import ProjectFileError
from studio.storage.media import write_representation
from tests.storage.bundle_setup import project_with_one_take


def _story_with_media_replaced(tmp_path: Path) -> Path:
    with project_with_one_take(tmp_path / "story") as project:
        folder = project.path
    (folder / "media").rename(tmp_path / "media-moved")
    (folder / "media").write_bytes(b"someone's notes")
    return folder


@pytest.mark.parametrize("read_only", [False, True])
def test_opening_lists_a_media_file_among_the_problems(tmp_path: Path, read_only: bool) -> None:
    folder = _story_with_media_replaced(tmp_path)
    with Project.open(folder, read_only=read_only) as project:
        named = [problem for problem in project.problems if problem.startswith("media/ is a file, not a folder")]
        assert len(named) == 1
        assert str(folder / "media") in named[0] and "move or rename it" in named[0]
    assert (folder / "media").read_bytes() == b"someone's notes"  # left as it was


def test_a_proper_media_folder_lists_no_such_problem(tmp_path: Path) -> None:
    with project_with_one_take(tmp_path / "story") as project:
        folder = project.path
    with Project.open(folder) as project:
        assert project.problems == []


@pytest.mark.parametrize("blocking", ["media", "media/takes"])
def test_writing_a_take_names_the_file_in_the_way(tmp_path: Path, blocking: str) -> None:
    with project_with_one_take(tmp_path / "story") as project:
        folder = project.path
        target = project.resolve(f"{project.take_media_dir('t2')}/representation.safetensors")
    (tmp_path / "moved").mkdir()
    (folder / blocking).rename(tmp_path / "moved" / "media")
    (folder / blocking).write_bytes(b"not a folder")
    with pytest.raises(ProjectFileError) as caught:
        write_representation(target, np.zeros((2, 3), dtype=np.float32))
    message = caught.value.message
    assert message == (f"Can't write representation.safetensors: the project's {blocking}/ is a file, not a folder "
                       f"({folder / blocking}).")
    assert f"Move or rename {folder / blocking}" in caught.value.hint
    assert (folder / blocking).read_bytes() == b"not a folder"
