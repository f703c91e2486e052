"""The window names a project's folder after its name only where the two differ: a story named
"Second" in the folder second.kamishibai opened as "Opened Second (in second.kamishibai)"."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import Project


@pytest.mark.parametrize(("folder", "name", "shown"), [
    ("second", "Second", "Second"),
    ("NIGHT WALK", "Night walk", "Night walk"),
    ("walk-v2", "Night walk", "Night walk (in walk-v2.kamishibai)"),
    ("p50", None, "p50"),
])
def test_the_folder_is_said_only_where_it_is_another_name(tmp_path: Path, folder: str, name: str | None,
                                                          shown: str) -> None:
    Project.create(tmp_path / folder, name).close()
    with Project.open(tmp_path / f"{folder}.kamishibai") as project:
        assert project.name_and_folder == shown
