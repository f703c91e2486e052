"""A rollback journal left hot by a program killed in the middle of a change
(``project.db-journal``: a database that was in rollback-journal mode, as older or other
SQLite programs leave it) holds no damage: SQLite undoes the change on the next connection
that may write. Opening the project for writing must do that and open it as it was last
saved; reading it must say why it can't yet, not call it damaged. Both used to read the
file as immutable, half-written pages included, and call a healthy project damaged (whose
hint, restoring an older backup, loses work)."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from studio.core import AddTurn, SetNotes
from studio.storage import Project
from studio.storage.database import UnfinishedChangeError
from studio.storage.errors import ProjectDamagedError

LEAVE_HOT_JOURNAL = textwrap.dedent("""
    import os, sqlite3, sys
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("PRAGMA cache_size=1")  # the change spills into the database file itself
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("UPDATE nodes SET notes = hex(randomblob(3000))")
    os._exit(0)  # killed before COMMIT or ROLLBACK
""")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture()
def interrupted(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "p") as project:
        parent = project.tree.root_id
        for i in range(30):
            project.apply(AddTurn(parent, f"Character: Qiqi; Motion: run; Background: day town; Step: {i}",
                                  node_id=f"n{i:02d}"))
            project.apply(SetNotes(f"n{i:02d}", f"saved {i}"))
            parent = f"n{i:02d}"
        path = project.path
    conn = sqlite3.connect(path / "project.db", isolation_level=None)
    assert conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete"
    conn.close()
    subprocess.run([sys.executable, "-c", LEAVE_HOT_JOURNAL, str(path / "project.db")], check=True)
    assert (path / "project.db-journal").stat().st_size > 0
    return path


def test_reading_says_what_is_unfinished_and_changes_nothing(interrupted: Path) -> None:
    before = {name: digest(interrupted / name) for name in ("project.db", "project.db-journal")}
    with pytest.raises(UnfinishedChangeError) as caught:
        Project.open(interrupted, read_only=True).close()
    assert not isinstance(caught.value, ProjectDamagedError)
    assert "project.db-journal" in caught.value.message and "damaged" not in caught.value.message
    assert "opened for writing" in caught.value.message
    assert {name: digest(interrupted / name) for name in before} == before


def test_opening_for_writing_undoes_the_unfinished_change(interrupted: Path) -> None:
    with Project.open(interrupted) as project:
        assert [project.tree.nodes[f"n{i:02d}"].notes for i in range(30)] == [f"saved {i}" for i in range(30)]
        assert project.problems == []
        project.apply(SetNotes("n00", "after"))
    assert not (interrupted / "project.db-journal").exists()
    with Project.open(interrupted, read_only=True) as project:
        assert project.tree.nodes["n00"].notes == "after"
        assert project.tree.nodes["n29"].notes == "saved 29"
