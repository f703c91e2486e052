"""`kamishibai bundle` and `info` of a damaged project said which file is damaged and gave the
`kamishibai rescue` command that saves what can still be read; `tree`, `story`, `export`,
`takes`, `note`, `delete`, `play` and `reroll` gave only the error and "restore it from a
bundle", which a user without a bundle can't. Every command that opens the project now says
the same: the damaged file, the `rescue` command to run, and exit status 2. The real commands
are run on real damaged databases: a row another program wrote with a value of the wrong type,
and a file whose pages were overwritten."""

from __future__ import annotations

import shlex
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.core import AddTurn
from studio.storage import Project

COMMANDS = {
    "info": ["info", "{p}"],
    "tree": ["tree", "{p}"],
    "story": ["story", "{p}", "n1", "--notes", "by the river"],
    "export": ["export", "{p}", "--out", "{tmp}/episode.mp4"],
    "takes": ["takes", "{p}", "n1"],
    "note": ["note", "{p}", "n1"],
    "delete": ["delete", "{p}", "n1", "--yes"],
    "play": ["play", "{p}", "Qiqi waves"],
    "reroll": ["reroll", "{p}", "n1"],
    "bundle": ["bundle", "{p}", "{tmp}/story.zip"],
}


def _project(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "my story.kamishibai") as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town",
                              node_id="n1"))
        return project.path


def _a_row_of_the_wrong_type(tmp_path: Path) -> Path:
    path = _project(tmp_path)
    with sqlite3.connect(path / "project.db") as db:  # as another program might write it
        db.execute("UPDATE nodes SET instruction = CAST('Character: Qiqi' AS BLOB) WHERE id = 'n1'")
    db.close()
    return path


def _pages_overwritten(tmp_path: Path) -> Path:
    path = _project(tmp_path)
    database = path / "project.db"
    data = bytearray(database.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # the pages after the header: the tables can't be read
    database.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("damage", [_a_row_of_the_wrong_type, _pages_overwritten])
def test_every_command_names_the_file_and_the_rescue_command(tmp_path: Path,
                                                            damage: Callable[[Path], Path]) -> None:
    path = damage(tmp_path)
    before = (path / "project.db").read_bytes()
    rescue = f"`kamishibai rescue {shlex.quote(str(path))} {shlex.quote('my story-rescued')}`"
    said: dict[str, str] = {}
    for name, command in COMMANDS.items():
        args = [arg.format(p=path, tmp=tmp_path) for arg in command]
        done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 2, (name, done.returncode, done.stderr)
        assert "Traceback" not in done.stderr, (name, done.stderr)
        error, _, hint = done.stderr.partition("\n  hint: ")
        assert error.startswith(f"kamishibai: error: {path / 'project.db'} "), (name, done.stderr)
        assert rescue in hint, (name, done.stderr)
        said[name] = error
    assert len(set(said.values())) == 1, f"each command says the same of the damage: {said}"
    assert (path / "project.db").read_bytes() == before, "nothing was written to the damaged file"
    assert not (tmp_path / "story.zip").exists() and not (tmp_path / "episode.mp4").exists()
