"""Making a project where a link to an empty folder has the folder's name: the project is
built beside its place and renamed into it, which can't replace a link, so `new` and the
window's New Project failed with the system's bare "Can't create the project
…/story.kamishibai: Not a directory." and no hint. Now the link is named, with the folder it
leads to as the place to use; a pipe of the folder's name is named as such, not as a file.
Nothing is changed either way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.errors import ProjectFileError


def test_a_link_to_an_empty_folder_is_named_with_the_folder_it_leads_to(tmp_path: Path) -> None:
    target = tmp_path / "disk" / "story.kamishibai"
    target.mkdir(parents=True)
    link = tmp_path / "story.kamishibai"
    os.symlink(target, link)
    with pytest.raises(ProjectFileError) as raised:
        Project.create(tmp_path / "story")
    assert raised.value.message == (f"{link} is a link to the folder {target}; a new project is made as a folder "
                                    "of its own, not through a link.")
    assert raised.value.hint.endswith(f"or make the project at {target} itself.")
    with pytest.raises(ProjectFileError, match="is a link to the folder"):
        Project.new_folder(tmp_path / "story")  # what the window asks before closing the open project
    assert link.is_symlink() and list(target.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["disk", "story.kamishibai"]
    with Project.create(target) as project:  # where the hint says to make it
        assert project.path == target and (target / "project.db").is_file()


def test_a_link_to_a_project_is_still_refused_as_not_empty(tmp_path: Path) -> None:
    Project.create(tmp_path / "real").close()
    os.symlink(tmp_path / "real.kamishibai", tmp_path / "story.kamishibai")
    with pytest.raises(ProjectFileError, match="already exists and is not empty"):
        Project.create(tmp_path / "story")


def test_a_pipe_of_the_folder_s_name_is_named_as_one(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "story.kamishibai")
    with pytest.raises(ProjectFileError, match=r"is a special file \(a pipe, socket or device\); a project is a "
                                               "folder"):
        Project.create(tmp_path / "story")
    assert [p.name for p in tmp_path.iterdir()] == ["story.kamishibai"]
