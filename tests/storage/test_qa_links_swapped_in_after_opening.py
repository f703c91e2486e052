"""A file or folder of an open project replaced by a link to elsewhere is never read through:
every path is checked again when it is used, not only the first time."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from studio.storage import Project
from studio.storage.media import MediaError, read_representation, write_representation
from studio.storage.paths import UnsafePathError, open_inside

POSTER = "media/takes/t1/poster.png"
REPRESENTATION = "media/takes/t1/representation.safetensors"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    project = Project.create(tmp_path / "story")
    folder = project.path / "media/takes/t1"
    folder.mkdir(parents=True)
    (folder / "poster.png").write_bytes(b"inside")
    write_representation(folder / "representation.safetensors", np.arange(6, dtype=np.float32).reshape(2, 3))
    yield project
    project.close()


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "poster.png").write_bytes(b"secret")
    write_representation(folder / "representation.safetensors", np.full((2, 3), 7, dtype=np.float32))
    return folder


def test_file_replaced_by_a_link_after_it_was_resolved_is_refused(project: Project, outside: Path) -> None:
    first = project.resolve(POSTER)
    assert first.read_bytes() == b"inside"
    first.unlink()
    first.symlink_to(outside / "poster.png")
    with pytest.raises(UnsafePathError, match="outside the project"):
        project.resolve(POSTER)


def test_folder_replaced_by_a_link_after_it_was_resolved_is_refused(project: Project, outside: Path) -> None:
    assert project.resolve(POSTER).read_bytes() == b"inside"
    takes = project.path / "media/takes"
    os.rename(takes / "t1", takes / "t1-moved")
    (takes / "t1").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafePathError, match="outside the project"):
        project.resolve(POSTER)
    # the same for the media folder itself, the top of every stored path
    (takes / "t1").unlink()
    os.rename(takes / "t1-moved", takes / "t1")
    assert project.resolve(POSTER).read_bytes() == b"inside"
    os.rename(project.path / "media", project.path / "media-moved")
    (project.path / "media").symlink_to(project.path.parent / "elsewhere", target_is_directory=True)
    with pytest.raises(UnsafePathError):
        project.resolve(POSTER)


def test_link_that_stays_inside_still_resolves_and_its_removal_is_seen(project: Project) -> None:
    takes = project.path / "media/takes"
    (takes / "t2").symlink_to(takes / "t1", target_is_directory=True)
    assert project.resolve("media/takes/t2/poster.png") == (takes / "t1/poster.png").resolve()
    (takes / "t2").unlink()
    (takes / "t2").mkdir()
    plain = project.resolve("media/takes/t2/poster.png")
    assert plain == Path(os.path.realpath(project.path)) / "media/takes/t2/poster.png"


def test_writing_through_a_swapped_folder_is_refused_and_nothing_is_written_outside(
        project: Project, outside: Path) -> None:
    project.resolve(POSTER)
    takes = project.path / "media/takes"
    os.rename(takes / "t1", takes / "t1-moved")
    (takes / "t1").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafePathError), project.writing(POSTER) as tmp:
        tmp.write_bytes(b"overwritten")
    assert (outside / "poster.png").read_bytes() == b"secret"


def test_open_media_follows_no_link_swapped_in(project: Project, outside: Path) -> None:
    array, _meta = read_representation(project.path / REPRESENTATION, project.open_media(REPRESENTATION))
    assert array.tolist() == [[0, 1, 2], [3, 4, 5]]
    takes = project.path / "media/takes"
    os.rename(takes / "t1", takes / "t1-moved")
    (takes / "t1").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafePathError):
        project.open_media(REPRESENTATION)
    # the file itself as a link
    (takes / "t1").unlink()
    os.rename(takes / "t1-moved", takes / "t1")
    (takes / "t1/representation.safetensors").unlink()
    (takes / "t1/representation.safetensors").symlink_to(outside / "representation.safetensors")
    with pytest.raises(UnsafePathError, match="outside the project"):
        project.open_media(REPRESENTATION)
    # opened a part at a time, a link is never followed, whatever checks came before
    with pytest.raises(UnsafePathError, match="representation.safetensors is a link"):
        open_inside(project.path, REPRESENTATION)


def test_read_representation_by_path_does_not_follow_a_linked_file(project: Project, outside: Path) -> None:
    path = project.path / REPRESENTATION
    path.unlink()
    path.symlink_to(outside / "representation.safetensors")
    with pytest.raises(MediaError, match="is a link"):
        read_representation(path)


def test_named_pipe_in_a_files_place_is_refused_without_waiting(project: Project) -> None:
    path = project.path / REPRESENTATION
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(MediaError, match="not a regular file"):
        read_representation(path, project.open_media(REPRESENTATION))
