"""A start state outside 0 to 100. ``SetStartState`` (the command the Start card and scripts
use) stored "stamina 500, social -30" as given, and a project.db holding such a value
(written by another program) opened with it shown as is ("[st 500 so -30]") and given to the
engines, while the first turn's change then clamped it to 100 at once. The command now
refuses it, naming the stats, and a stored one reads as the nearest allowed value, told
in the project's problems (as a stored duration out of range is)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from studio.core import CharacterState, SetStartState
from studio.core.commands import CommandError
from studio.storage import Project


@pytest.mark.parametrize("state", [CharacterState(500, 50, 50), CharacterState(50, -30, 50),
                                   CharacterState(50, 50, 101), CharacterState(50, 50, True)])
@pytest.mark.parametrize("character", ["", "Qiqi"])
def test_the_command_refuses_a_stat_out_of_range(project: Project, state: CharacterState, character: str) -> None:
    before = project.tree.root
    with pytest.raises(CommandError, match="A start state is 0 to 100 for each stat"):
        project.apply(SetStartState(character, state))
    assert project.tree.root == before
    assert not project.document.history.done


def test_the_ends_of_the_range_are_kept(project: Project) -> None:
    project.apply(SetStartState("Qiqi", CharacterState(0, 100, 0)))
    assert project.tree.root.start_states == {"Qiqi": CharacterState(0, 100, 0)}


def test_a_stored_state_out_of_range_reads_as_the_nearest_and_is_reported(tmp_path: Path) -> None:
    with Project.create(tmp_path / "p") as project:
        path, root_id = project.path, project.tree.root_id
    conn = sqlite3.connect(path / "project.db")
    conn.execute("UPDATE nodes SET start_state = ?, start_states = ? WHERE id = ?",
                 (json.dumps({"stamina": 500, "social": 40, "entertainment": 7}),
                  json.dumps({"Mei": {"stamina": 50, "social": -30, "entertainment": 60}}), root_id))
    conn.commit()
    conn.close()
    with Project.open(path, read_only=True) as reopened:
        root = reopened.tree.root
        assert root.start_state == CharacterState(100, 40, 7)
        assert root.start_states == {"Mei": CharacterState(50, 0, 60)}
        assert reopened.tree.state_of(root.id) == CharacterState(100, 40, 7)
        problems = [p for p in reopened.problems if "outside 0 to 100" in p]
        assert len(problems) == 2, reopened.problems
        assert "stamina 500" in problems[0] + problems[1] and "social -30" in problems[0] + problems[1]
