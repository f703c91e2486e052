"""The window's Save a copy of a damaged project names the copy as any new project is named: a
story given a name keeps it, one made without a name takes its new folder's name. The copy stored
the damaged folder's name as a given one, so it kept saying "p50" wherever it was moved."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.rescue import copy_from_memory


@pytest.mark.parametrize(("given", "expected"), [(None, "rescued"), ("Qiqi's long day", "Qiqi's long day")])
def test_the_copy_keeps_only_a_given_name(tmp_path: Path, given: str | None, expected: str) -> None:
    Project.create(tmp_path / "p50", given).close()
    source = Project.open(tmp_path / "p50.kamishibai")
    try:
        copy = copy_from_memory(source, source.tree, tmp_path / "rescued")
        try:
            assert copy.project.name == expected
        finally:
            copy.project.close()
    finally:
        source.close()
    moved = (tmp_path / "rescued.kamishibai").rename(tmp_path / "moved.kamishibai")
    with Project.open(moved) as reopened:
        assert reopened.name == (given or "moved")
