"""A value of another type than its column's, written by another program (SQLite keeps
any value in any column): a BLOB in ``nodes.instruction`` opened, then ``tree`` and ``info``
failed far away with "internal error: can't concat str to bytes". Opening checks the type
of every value it reads and refuses the project as damaged, naming the table, the row and
the column, as it does a row it can't read."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from studio.cli import main
from studio.core import AddCastMember, AddTake, AddTurn, CastMember, StateDeltas, Take
from studio.storage import Project
from studio.storage.errors import RESTORE_HINT, ProjectDamagedError


def make_project(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "p") as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town", node_id="n1"))
        project.apply(AddTake(Take(id="t1", node_id="n1", engine="fake", deltas=StateDeltas(-2, 0, 1))))
        project.apply(AddCastMember(CastMember(id="c1", name="Qiqi")))
        return project.path


def store(path: Path, sql: str) -> str:
    """Run ``sql`` as another program would; the database's digest after it."""
    conn = sqlite3.connect(path / "project.db")
    conn.execute(sql)
    conn.commit()
    conn.close()
    return hashlib.sha256((path / "project.db").read_bytes()).hexdigest()


CASES = [
    ("UPDATE nodes SET instruction = CAST('Character: Qiqi' AS BLOB) WHERE id = 'n1'",
     "table nodes, row 'n1': column instruction holds a BLOB of 15 bytes, not text"),
    ("UPDATE takes SET d_social = 2.5 WHERE id = 't1'",
     "table takes, row 't1': column d_social holds a real number (2.5), not integer"),
    ("UPDATE nodes SET bookmarked = 'yes' WHERE id = 'n1'",
     "table nodes, row 'n1': column bookmarked holds text ('yes'), not integer"),
    ("UPDATE takes SET seed = x'00ff' WHERE id = 't1'",
     "table takes, row 't1': column seed holds a BLOB of 2 bytes, not integer"),
    ("UPDATE cast_members SET params = x'7b7d'",
     "table cast_members, row 'c1': column params holds a BLOB of 2 bytes, not text"),
    ("UPDATE nodes SET id = x'6e31' WHERE id = 'n1'",  # (a number in a TEXT column is stored as text)
     "table nodes, row number 2: column id holds a BLOB of 2 bytes, not text"),
]


@pytest.mark.parametrize(("sql", "said"), CASES, ids=[said.split(": ")[1].split(" holds")[0] for _, said in CASES])
def test_a_value_of_another_type_is_refused_as_damage(tmp_path: Path, sql: str, said: str) -> None:
    path = make_project(tmp_path)
    before = store(path, sql)
    for read_only in (True, False):
        with pytest.raises(ProjectDamagedError) as raised:
            Project.open(path, read_only=read_only)
        message = raised.value.message
        assert message.startswith(f"{path / 'project.db'} holds a row that can't be read: ")
        assert message.endswith(f"{said}.")
        assert raised.value.hint == RESTORE_HINT
    assert hashlib.sha256((path / "project.db").read_bytes()).hexdigest() == before


def test_null_where_the_column_allows_it_is_fine(tmp_path: Path) -> None:
    path = make_project(tmp_path)
    store(path, "UPDATE nodes SET selected_take_id = NULL, start_state = NULL WHERE id = 'n1'")
    with Project.open(path, read_only=True) as project:
        assert project.tree.nodes["n1"].instruction.raw.startswith("Character: Qiqi")


@pytest.mark.parametrize("command", ["tree", "info"])
def test_tree_and_info_name_the_damage_instead_of_an_internal_error(tmp_path: Path, command: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = make_project(tmp_path)
    store(path, CASES[0][0])
    assert main([command, str(path)]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert "column instruction holds a BLOB of 15 bytes, not text" in err and "Restore it" in err
