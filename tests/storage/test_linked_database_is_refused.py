"""A ``project.db`` that is a symbolic link to another project's database opened for writing
under this folder's writer lock only: the other project's writer, holding its own folder's
lock, wrote the same database at the same time. Such a link is refused now, for reading as
well (its rows' media paths would name this folder's files), naming the link and its target,
before anything (a lock file) is made in the folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.errors import ProjectDatabaseLinkError


def linked_project(tmp_path: Path) -> tuple[Path, Path]:
    """A project, and a second folder whose project.db is a link to the first one's."""
    Project.create(tmp_path / "real").close()
    target = tmp_path / "real.kamishibai" / "project.db"
    linked = tmp_path / "linked.kamishibai"
    linked.mkdir()
    (linked / "media").mkdir()
    os.symlink(target, linked / "project.db")
    return linked, target


@pytest.mark.parametrize("read_only", [False, True])
def test_a_linked_database_is_refused_naming_the_link_and_its_target(tmp_path: Path, read_only: bool) -> None:
    linked, target = linked_project(tmp_path)
    with pytest.raises(ProjectDatabaseLinkError) as refused:
        Project.open(linked, read_only=read_only)
    assert f"{linked}: its project.db is a symbolic link to {target}" in refused.value.message
    assert "Nothing was changed" in refused.value.hint
    assert sorted(p.name for p in linked.iterdir()) == ["media", "project.db"]  # no writer.lock made


def test_a_link_to_a_project_open_elsewhere_is_refused(tmp_path: Path) -> None:
    linked, target = linked_project(tmp_path)
    with Project.open(target.parent), pytest.raises(ProjectDatabaseLinkError):
        Project.open(linked)


def test_a_link_that_leads_nowhere_is_called_a_link(tmp_path: Path) -> None:
    folder = tmp_path / "dangling.kamishibai"
    folder.mkdir()
    os.symlink(tmp_path / "gone" / "project.db", folder / "project.db")
    with pytest.raises(ProjectDatabaseLinkError, match="which does not exist"):
        Project.open(folder)
