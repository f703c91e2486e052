"""A stored take whose state change (or motion level) is out of range, or whose status is unknown.

QA: a project.db whose take held ``d_stamina = 9`` (written by another program; the engines
give -5 to 5) refused to open at all, with "holds a row that can't be read: stamina delta 9
is outside [-5, 5]", naming neither the take nor its turn. It now opens, the change read as
the nearest value in range and listed among the project's problems, naming the take and its
node, as a start state out of 0 to 100 is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from studio.core import AddTurn, CharacterState
from studio.core.state import StateDeltas
from studio.storage import Project
from studio.storage.errors import ProjectDamagedError
from tests.storage.bundle_setup import project_with_one_take


def _project_with_a_take(parent: Path) -> Path:
    with project_with_one_take(parent / "p") as project:
        project.apply(AddTurn("n1", "Character: Qiqi; Motion: jump; Background: day town", node_id="n2"))
        return project.path


def _store(path: Path, sql: str) -> None:
    conn = sqlite3.connect(path / "project.db")
    conn.execute(sql)
    conn.commit()
    conn.close()


@pytest.mark.parametrize("read_only", [True, False])
def test_a_change_out_of_range_reads_as_the_nearest_and_is_reported(tmp_path: Path, read_only: bool) -> None:
    path = _project_with_a_take(tmp_path)
    _store(path, "UPDATE takes SET d_stamina = 9, d_social = -7, d_entertainment = 3 WHERE id = 't1'")
    with Project.open(path, read_only=read_only) as project:
        assert project.tree.takes["t1"].deltas == StateDeltas(5, -5, 3)
        assert project.tree.state_of("n1") == CharacterState(75, 25, 65)
        problems = [p for p in project.problems if "state change" in p]
        assert problems == ["take t1 of node n1: its stored state change stamina +9, social -7 is outside -5 to 5: "
                            "read as stamina +5, social -5"], project.problems


def test_a_change_that_is_not_an_integer_names_the_take(tmp_path: Path) -> None:
    """Still a damaged row (nothing to read it as), but said of the take and the stat."""
    path = _project_with_a_take(tmp_path)
    _store(path, "UPDATE takes SET d_social = 2.5 WHERE id = 't1'")
    with pytest.raises(ProjectDamagedError) as raised:
        Project.open(path, read_only=True)
    assert "t1" in raised.value.message and "social" in raised.value.message, raised.value.message


def test_changes_in_range_are_no_problem(tmp_path: Path) -> None:
    path = _project_with_a_take(tmp_path)
    _store(path, "UPDATE takes SET d_stamina = -5, d_social = 5, d_entertainment = 3 WHERE id = 't1'")
    with Project.open(path, read_only=True) as project:
        assert project.tree.takes["t1"].deltas == StateDeltas(-5, 5, 3)
        assert not [p for p in project.problems if "state change" in p], project.problems


@pytest.mark.parametrize(("stored", "read"), [(99, 5), (-3, 1), (0, 1)])
def test_a_motion_level_out_of_range_reads_as_the_nearest_and_is_reported(tmp_path: Path, stored: int,
                                                                          read: int) -> None:
    """QA: "holds a row that can't be read: motion level 99 is outside 1..5", naming no take."""
    path = _project_with_a_take(tmp_path)
    _store(path, f"UPDATE takes SET motion_level = {stored} WHERE id = 't1'")
    with Project.open(path) as project:
        assert project.tree.takes["t1"].motion_level == read
        assert f"take t1 of node n1: its stored motion level {stored} is outside 1 to 5: read as {read}" \
            in project.problems, project.problems


@pytest.mark.parametrize(("sql", "said"), [
    ("UPDATE takes SET status = 'weird' WHERE id = 't1'",
     "take t1's status is 'weird', not one of queued, running, done, failed, cancelled"),
    ("UPDATE nodes SET state_scope = 'weird' WHERE id = 'n1'",
     "node n1's state scope is 'weird', not one of character, branch"),
])
def test_an_unknown_status_or_scope_names_its_row_and_what_is_allowed(tmp_path: Path, sql: str, said: str) -> None:
    """QA: "'weird' is not a valid TakeStatus": neither the take nor the values allowed."""
    path = _project_with_a_take(tmp_path)
    _store(path, sql)
    with pytest.raises(ProjectDamagedError) as raised:
        Project.open(path, read_only=True)
    assert said in raised.value.message, raised.value.message
