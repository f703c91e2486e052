"""A project folder moved or deleted while its project is open: the database stays open by
file handle, but media are written by path. A take's clip or an imported picture written
afterwards went to the old place (its folders made again: a ghost project folder there),
named by rows committed in the moved database; after a delete everything went to files
nobody could reach. Now storage compares the database file's identity with what its path
names before media are written and before a change is committed, and refuses with a
:class:`ProjectMovedError` that says where the folder went and what to do."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core.commands import AddCastMember
from studio.core.model import CastMember
from studio.storage import Project
from studio.storage.errors import ProjectMovedError
from studio.storage.media import write_clip, write_poster
from studio.storage.media_import import import_image


def picture(path: Path) -> Path:
    Image.new("RGB", (8, 8), "red").save(path)
    return path


def cast_names(folder: Path) -> list[str]:
    with Project.open(folder, read_only=True) as reader:
        return sorted(member.name for member in reader.tree.cast.values())


def test_an_import_after_a_move_is_refused_and_makes_no_ghost_folder(project: Project, tmp_path: Path) -> None:
    old = project.path
    moved = tmp_path / "elsewhere.kamishibai"
    old.rename(moved)
    with pytest.raises(ProjectMovedError) as refused:
        import_image(project, picture(tmp_path / "front.png"), "characters")
    assert f"was moved to {moved}" in refused.value.message
    assert "Put the folder back" in refused.value.hint and str(moved) in refused.value.hint
    assert not old.exists()
    assert not any(path.is_file() for path in (moved / "media").rglob("*"))


def test_a_media_write_after_a_move_is_refused(project: Project, tmp_path: Path) -> None:
    old = project.path
    old.rename(tmp_path / "moved.kamishibai")
    with pytest.raises(ProjectMovedError, match="was moved to"), project.writing("media/notes/a.bin") as tmp:
        tmp.write_bytes(b"x")  # pragma: no cover - refused before
    assert not old.exists()


def test_a_change_after_a_move_is_not_committed_into_the_moved_database(project: Project, tmp_path: Path) -> None:
    project.apply(AddCastMember(CastMember(id="m1", name="Qiqi")))
    moved = tmp_path / "moved.kamishibai"
    project.path.rename(moved)
    with pytest.raises(ProjectMovedError, match="save the change"):
        project.apply(AddCastMember(CastMember(id="m2", name="Sosuke")))
    assert "m2" not in project.tree.cast
    assert cast_names(moved) == ["Qiqi"]


def test_take_files_written_by_the_folder_path_after_a_delete_are_refused(project: Project) -> None:
    """The engine host knows the project only by its folder's path (it may be a child
    process): its writes must not make the deleted folder again."""
    old = project.path
    shutil.rmtree(old)
    frames = np.zeros((2, 16, 16, 3), dtype=np.uint8)
    with pytest.raises(ProjectMovedError, match="moved or deleted"):
        write_clip(old / "media" / "takes" / "t1" / "clip.mp4", frames, 8.0)
    with pytest.raises(ProjectMovedError):
        write_poster(old / "media" / "takes" / "t1" / "poster.png", frames[0])
    assert not old.exists()
    with pytest.raises(ProjectMovedError, match="was deleted") as refused:
        project.apply(AddCastMember(CastMember(id="m1", name="Qiqi")))
    assert "Nothing was written" in refused.value.hint
    assert not old.exists()


def test_another_project_put_in_its_place_is_not_written_to(project: Project, tmp_path: Path) -> None:
    old = project.path
    old.rename(tmp_path / "moved.kamishibai")
    Project.create(old).close()
    with pytest.raises(ProjectMovedError, match=r"another project\.db is there now"):
        import_image(project, picture(tmp_path / "front.png"))
    with pytest.raises(ProjectMovedError):
        project.apply(AddCastMember(CastMember(id="m1", name="Qiqi")))
    assert cast_names(old) == []


def test_a_project_in_place_writes_as_before(project: Project, tmp_path: Path) -> None:
    rel = import_image(project, picture(tmp_path / "front.png"), "characters")
    project.apply(AddCastMember(CastMember(id="m1", name="Qiqi", reference_images=(rel,))))
    assert project.resolve(rel).is_file()
    assert cast_names(project.path) == ["Qiqi"]
