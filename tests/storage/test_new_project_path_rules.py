"""Every way of making a project follows the same rules for its path, not only `kamishibai new`.

QA: ``Project.create`` (the window's New Project, ``sample``) and ``import_bundle``
(``unbundle``) made ``x.KAMISHIBAI.kamishibai`` for ``x.KAMISHIBAI``, a folder no command finds
by ``x``; and given ``a/../b`` they made the project at ``b.kamishibai`` but left an empty
folder ``a`` behind (the folder above was made as written, ``a`` first)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.bundle import export_bundle, import_bundle
from studio.storage.errors import ProjectFileError
from studio.storage.project import new_project_path


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "source" / "story") as project:
        return export_bundle(project, tmp_path / "source" / "story.zip")


def _create(path: Path) -> Project:
    return Project.create(path)


def _unbundle_from(bundle: Path) -> Callable[[Path], Project]:
    return lambda path: import_bundle(bundle, path)


@pytest.mark.parametrize("suffix", [".KAMISHIBAI", ".Kamishibai"])
@pytest.mark.parametrize("how", ["create", "unbundle"])
def test_a_suffix_in_other_letters_is_refused_and_nothing_is_made(tmp_path: Path, bundle: Path, suffix: str,
                                                                  how: str) -> None:
    make = _create if how == "create" else _unbundle_from(bundle)
    where = tmp_path / "new"
    where.mkdir()
    with pytest.raises(ProjectFileError) as raised:
        make(where / f"x{suffix}")
    assert raised.value.message == (f"{where / f'x{suffix}'} ends in {suffix}; project folders end in .kamishibai, "
                                    "in small letters."), raised.value.message
    assert raised.value.hint == f"Give {where / 'x.kamishibai'}."
    assert list(where.iterdir()) == [], "nothing is made"


def test_the_window_is_refused_before_it_closes_the_open_project(tmp_path: Path) -> None:
    with pytest.raises(ProjectFileError, match="in small letters"):
        Project.new_folder(tmp_path / "x.KAMISHIBAI")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("how", ["create", "unbundle"])
def test_dot_dot_in_the_path_leaves_no_folder_behind(tmp_path: Path, bundle: Path, how: str) -> None:
    make = _create if how == "create" else _unbundle_from(bundle)
    where = tmp_path / "new"
    where.mkdir()
    with make(where / "a" / ".." / "b") as project:
        assert project.path == where / "b.kamishibai"
    assert sorted(entry.name for entry in where.iterdir()) == ["b.kamishibai"], "no empty `a` is left"
    assert (where / "b.kamishibai" / "project.db").is_file()


def test_dot_dot_after_a_link_is_the_link_target_s_parent(tmp_path: Path) -> None:
    """As the file system reads ``link/..``: the parent of where the link leads, not the
    folder that holds the link."""
    (tmp_path / "far" / "inner").mkdir(parents=True)
    (tmp_path / "near").mkdir()
    (tmp_path / "near" / "link").symlink_to(tmp_path / "far" / "inner")
    assert new_project_path(tmp_path / "near" / "link" / ".." / "b") == tmp_path / "far" / "b.kamishibai"


def test_the_right_suffix_and_a_plain_name_are_unchanged(tmp_path: Path) -> None:
    assert new_project_path(tmp_path / "x.kamishibai") == tmp_path / "x.kamishibai"
    assert new_project_path(tmp_path / "x") == tmp_path / "x.kamishibai"
    assert new_project_path(tmp_path / "x.zip") == tmp_path / "x.zip.kamishibai"
