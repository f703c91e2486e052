"""The window's title and status said "Opened p50" for the project folder c8.kamishibai (a copy
of p50.kamishibai). A project made without a name is named for its folder, so its copy opens as
"c8"; a project whose name differs from its folder's (given with `new --name`, or kept by a
project made before names followed the folder) shows the folder beside it."""

from __future__ import annotations

import shutil
from pathlib import Path

from studio.storage import Project


def test_a_copy_of_an_unnamed_project_opens_under_its_folders_name(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    Project.create(tmp_path / "p50").close()
    shutil.copytree(tmp_path / "p50.kamishibai", tmp_path / "c9.kamishibai")
    window = make_window(tmp_path / "c9.kamishibai")
    assert window.windowTitle() == "c9 — Kamishibai Studio"
    assert window.status_label.text() == "Opened c9"


def test_a_name_other_than_the_folders_is_shown_with_the_folder(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    Project.create(tmp_path / "p50", name="p50").close()  # a name stored, as every project had before
    shutil.copytree(tmp_path / "p50.kamishibai", tmp_path / "c8.kamishibai")
    window = make_window(tmp_path / "c8.kamishibai")
    assert window.windowTitle() == "p50 (in c8.kamishibai) — Kamishibai Studio"
    assert window.status_label.text() == "Opened p50 (in c8.kamishibai)"
    window.close_project("cancel")

    window = make_window(tmp_path / "p50.kamishibai")  # where name and folder agree: the name alone
    assert window.windowTitle() == "p50 — Kamishibai Studio"
    assert window.status_label.text() == "Opened p50"
