"""A project whose database holds unreadable rows said one of them per run ("take …'s
settings is not valid JSON"), and every damaged database was told to be restored from "a
backup (project.db.bak-*)" that exists only after a schema upgrade, so almost never. Now every
unreadable row is named at once, and the hint names the backups the folder really holds, or
none."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


@pytest.fixture
def damaged(tmp_path: Path) -> tuple[Path, list[str]]:
    """A project of two turns whose two takes each hold a value that is not JSON."""
    project = tmp_path / "r.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    played = kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park", "Qiqi sits in the park",
                        "--json")
    assert played.returncode == 0, played.stderr
    takes = [str(turn["take"]) for turn in json.loads(played.stdout)]
    with sqlite3.connect(project / "project.db") as conn:
        conn.execute("UPDATE takes SET settings = '{not json' WHERE id = ?", (takes[0],))
        conn.execute("UPDATE takes SET warnings = '[oops' WHERE id = ?", (takes[1],))
    conn.close()
    return project, takes


def test_every_unreadable_row_is_named_at_once(damaged: tuple[Path, list[str]]) -> None:
    project, takes = damaged
    shown = kamishibai("tree", str(project))
    assert shown.returncode != 0
    assert "holds 2 rows that can't be read" in shown.stderr, shown.stderr
    assert f"take {takes[0]}'s settings is not valid JSON" in shown.stderr
    assert f"take {takes[1]}'s warnings is not valid JSON" in shown.stderr
    assert "bak-*" not in shown.stderr and "backup" not in shown.stderr  # the folder holds none


def test_the_hint_names_a_backup_that_is_there(damaged: tuple[Path, list[str]]) -> None:
    project, _takes = damaged
    (project / "project.db.bak-v2").write_bytes(b"an older database")
    shown = kamishibai("tree", str(project))
    assert shown.returncode != 0
    assert f"{project / 'project.db.bak-v2'}" in shown.stderr, shown.stderr
    assert "bak-*" not in shown.stderr


def test_a_garbage_database_names_no_backup_it_lacks(tmp_path: Path) -> None:
    project = tmp_path / "g.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    (project / "project.db").write_bytes(b"garbage " * 64)
    shown = kamishibai("tree", str(project))
    assert shown.returncode != 0 and "is damaged" in shown.stderr, shown.stderr
    assert "bak-*" not in shown.stderr and "backup" not in shown.stderr


def test_values_of_the_wrong_type_in_several_rows_and_tables_are_named_at_once(tmp_path: Path) -> None:
    project = tmp_path / "t.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    played = kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park", "Qiqi sits in the park",
                        "--json")
    assert played.returncode == 0, played.stderr
    turns = json.loads(played.stdout)
    with sqlite3.connect(project / "project.db") as conn:
        conn.execute("UPDATE takes SET engine = X'41'")  # both takes (a blob: a number would read as text)
        conn.execute("UPDATE nodes SET camera = X'42' WHERE id = ?", (turns[0]["node"],))
    conn.close()
    shown = kamishibai("tree", str(project))
    assert shown.returncode != 0
    assert "holds 3 rows that can't be read" in shown.stderr, shown.stderr
    for turn in turns:
        assert f"table takes, row '{turn['take']}': column engine holds" in shown.stderr
    assert f"table nodes, row '{turns[0]['node']}': column camera holds" in shown.stderr
