"""Removing a project folder (a sample the user stopped while it was being built) is the
storage's to do, and it removes only a project folder or an empty one: the window's
sample builder deleted whatever folder it was pointed at."""

from __future__ import annotations

from pathlib import Path

from studio.storage import Project
from studio.storage.project import remove_project_folder


def test_a_project_and_an_empty_folder_are_removed_anything_else_is_kept(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story.kamishibai")
    project.close()
    remove_project_folder(tmp_path / "story.kamishibai")
    assert not (tmp_path / "story.kamishibai").exists()

    (tmp_path / "empty").mkdir()
    remove_project_folder(tmp_path / "empty")
    assert not (tmp_path / "empty").exists()

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("keep me", encoding="utf-8")
    remove_project_folder(notes)
    assert (notes / "todo.txt").read_text(encoding="utf-8") == "keep me"

    other = Project.create(tmp_path / "other.kamishibai")
    other.close()
    (tmp_path / "link.kamishibai").symlink_to(tmp_path / "other.kamishibai")
    remove_project_folder(tmp_path / "link.kamishibai")
    assert (tmp_path / "other.kamishibai" / "project.db").is_file()
    remove_project_folder(tmp_path / "missing")  # nothing there: nothing happens


def test_a_take_folder_is_removed_by_the_project(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story.kamishibai")
    folder = project.resolve(project.take_media_dir("t1"))
    folder.mkdir(parents=True)
    (folder / "clip.mp4").write_bytes(b"partial")
    project.remove_take_media("t1")
    project.remove_take_media("..")  # not one plain name: nothing removed, no error
    assert not folder.exists() and (tmp_path / "story.kamishibai" / "project.db").is_file()
    project.close()
