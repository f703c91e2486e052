"""Cleaning up after a killed `new`, `unbundle` or export removes only the studio's own work
folders: a hidden folder of the user's that merely resembles one (``.holiday.import-photos``
beside an unpacked bundle) used to be deleted with everything in it once it was an hour old."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.bundle import export_bundle, import_bundle
from studio.storage.staging import LEGACY_MIN_AGE_S, StagingDir, sweep

USER_FOLDERS = (".holiday.import-photos", ".story.kamishibai.new-ideas", ".camera.export-raw",
                ".old.import-2023", ".notes.import-")


def _user_folders(parent: Path) -> list[Path]:
    folders = []
    for name in USER_FOLDERS:
        folder = parent / name
        folder.mkdir()
        (folder / "precious.txt").write_text("keep me")
        old = time.time() - 2 * LEGACY_MIN_AGE_S  # old enough to pass for an abandoned work folder
        os.utime(folder, (old, old))
        folders.append(folder)
    return folders


def test_sweep_removes_only_names_a_work_folder_could_have(tmp_path: Path) -> None:
    folders = _user_folders(tmp_path)
    abandoned = StagingDir(tmp_path, ".story.kamishibai.new-")
    (abandoned.path / ".owner").unlink()  # as a process killed before it locked it leaves it
    old = time.time() - 2 * LEGACY_MIN_AGE_S
    os.utime(abandoned.path, (old, old))
    removed = sweep(tmp_path, lambda name: name.startswith("."))
    assert removed == [abandoned.path]
    assert all((folder / "precious.txt").read_text() == "keep me" for folder in folders)


@pytest.mark.parametrize("how", ["new", "unbundle"])
def test_new_and_unbundle_keep_the_users_hidden_folders_beside_them(tmp_path: Path, how: str) -> None:
    source = tmp_path / "source"
    source.mkdir()
    with Project.create(source / "story") as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    parent = tmp_path / "dest"
    parent.mkdir()
    folders = _user_folders(parent)
    if how == "new":
        Project.create(parent / "story").close()
    else:
        import_bundle(bundle, parent / "story").close()
    assert (parent / "story.kamishibai").is_dir()
    assert all((folder / "precious.txt").read_text() == "keep me" for folder in folders), \
        sorted(p.name for p in parent.iterdir())
