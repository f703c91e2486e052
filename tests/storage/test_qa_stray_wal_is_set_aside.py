"""A ``project.db-wal`` left by a crash is replayed into ``project.db``; one that does not
belong to the ``project.db`` beside it (a backup copy put back after the crash) is set aside,
renamed and whole, and the project opens as the restored file holds it.

Before, SQLite replayed such a WAL into the restored copy: its pages of a later version
written over an earlier one (damage, or two versions silently mixed). Every WAL here is a
real one: a writer process commits edits and is killed with SIGKILL before it checkpoints.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from studio.cli import main
from studio.core import AddTurn
from studio.storage import Project
from studio.storage.wal_check import WalJudgement, judge_wal

LINE = "Character: Qiqi; Motion: {}; Background: day town"

CHILD = textwrap.dedent("""
    import sys, time
    from studio.core import AddTurn
    from studio.storage import Project
    path, motions, checkpoint = sys.argv[1], sys.argv[2].split(","), sys.argv[3] == "1"
    project = Project.open(path)
    for motion in motions:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: %s; Background: day town" % motion,
                              node_id=motion))
    if checkpoint:  # the file takes every frame, the WAL is kept (no writer has restarted it)
        project.database.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    print("committed", flush=True)
    time.sleep(600)
""")


def crash_after(path: Path, *motions: str, checkpoint: bool = False) -> None:
    """Commit a turn per motion in another process, then kill it (SIGKILL): no clean close,
    the committed frames stay in ``project.db-wal``."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), ",".join(motions), "1" if checkpoint else "0"],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "committed"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert (path / "project.db-wal").stat().st_size > 0, "the crash left committed frames in the WAL"


def add_turns(path: Path, *motions: str) -> None:
    with Project.open(path) as project:
        for motion in motions:
            project.apply(AddTurn(project.tree.root_id, LINE.format(motion), node_id=motion))


def turns(path: Path, *, read_only: bool = False) -> tuple[list[str], list[str]]:
    with Project.open(path, read_only=read_only) as project:
        return sorted(n.id for n in project.tree.nodes.values() if n.parent_id), list(project.problems)


def set_aside_files(path: Path) -> list[Path]:
    return sorted(path.glob("project.db-*.set-aside-*"))


def new_project(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "p") as project:
        return project.path


def test_a_crashs_own_wal_is_replayed(tmp_path: Path) -> None:
    path = new_project(tmp_path)
    add_turns(path, "run")
    crash_after(path, "jump", "sit")
    assert judge_wal(path / "project.db").judgement is WalJudgement.BELONGS
    assert turns(path, read_only=True) == (["jump", "run", "sit"], [])
    assert turns(path) == (["jump", "run", "sit"], [])
    assert set_aside_files(path) == []


def test_a_wal_partly_copied_into_the_file_is_still_its_own(tmp_path: Path) -> None:
    path = new_project(tmp_path)
    crash_after(path, "jump", "sit", checkpoint=True)
    assert judge_wal(path / "project.db").judgement is WalJudgement.BELONGS
    assert turns(path) == (["jump", "sit"], [])
    assert set_aside_files(path) == []


def test_the_file_the_wal_was_written_on_is_a_sound_restore(tmp_path: Path) -> None:
    """A copy of the very file the crashed writer started from: its WAL applies to it."""
    path = new_project(tmp_path)
    add_turns(path, "run")
    copy = tmp_path / "copy.db"
    shutil.copyfile(path / "project.db", copy)
    crash_after(path, "jump")
    shutil.copyfile(copy, path / "project.db")
    assert turns(path) == (["jump", "run"], [])
    assert set_aside_files(path) == []


def test_a_restored_backup_keeps_the_crashs_wal_aside(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = new_project(tmp_path)
    add_turns(path, "run")
    backup = tmp_path / "backup.db"
    shutil.copyfile(path / "project.db", backup)
    add_turns(path, "walk")  # saved, and closed: the backup is older than the file the crash wrote on
    crash_after(path, "jump")
    crashed = tmp_path / "crashed.db"
    shutil.copyfile(path / "project.db", crashed)
    wal_bytes = (path / "project.db-wal").read_bytes()
    shutil.copyfile(backup, path / "project.db")  # the user puts the backup back
    assert judge_wal(path / "project.db").judgement is WalJudgement.FOREIGN

    # reading (info) shows the backup as it is, says why, and moves nothing
    capsys.readouterr()
    assert main(["info", str(path), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["turns"] == 1
    (problem,) = info["problems"]
    assert "project.db-wal does not belong to project.db" in problem and "sets project.db-wal aside" in problem
    assert (path / "project.db-wal").read_bytes() == wal_bytes and set_aside_files(path) == []

    # writing sets the WAL (and its index) aside, whole, and opens the backup as it is
    found, problems = turns(path)
    assert found == ["run"]
    aside = set_aside_files(path)
    assert [p.name.split(".set-aside-")[0] for p in aside] == ["project.db-shm", "project.db-wal"][-len(aside):]
    wal_aside = next(p for p in aside if p.name.startswith("project.db-wal"))
    assert wal_aside.read_bytes() == wal_bytes
    assert not (path / "project.db-wal").exists() or (path / "project.db-wal").stat().st_size == 0
    (note,) = problems
    assert wal_aside.name in note and "were not applied" in note and str(path) in note
    with sqlite3.connect(path / "project.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    add_turns(path, "wave")  # the restored project is a sound one to go on with
    assert turns(path) == (["run", "wave"], [])

    # nothing was lost: the WAL set aside, beside the file it belongs to, holds the crash's work
    elsewhere = new_project(tmp_path / "elsewhere")
    shutil.copyfile(crashed, elsewhere / "project.db")
    shutil.copyfile(wal_aside, elsewhere / "project.db-wal")
    assert turns(elsewhere) == (["jump", "run", "walk"], [])


def test_a_wal_of_another_page_size_is_foreign(tmp_path: Path) -> None:
    path = new_project(tmp_path)
    crash_after(path, "jump")
    wal = (path / "project.db-wal").read_bytes()
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("PRAGMA page_size=8192")
        db.execute("CREATE TABLE t(a)")
    db.close()
    shutil.copyfile(other, path / "project.db")
    (path / "project.db-wal").write_bytes(wal)
    verdict = judge_wal(path / "project.db")
    assert verdict.judgement is WalJudgement.FOREIGN and "8192" in verdict.reason


def test_another_programs_commits_are_not_taken_for_a_foreign_wal(tmp_path: Path) -> None:
    """A commit made with the sqlite3 shell keeps the header's mark as it was."""
    path = new_project(tmp_path)
    add_turns(path, "run")
    script = textwrap.dedent("""
        import sqlite3, sys, time
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("UPDATE nodes SET notes = 'by hand' WHERE id = 'run'")
        print("committed", flush=True)
        time.sleep(600)
    """)
    child = subprocess.Popen([sys.executable, "-c", script, str(path / "project.db")], stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "committed"
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    assert judge_wal(path / "project.db").judgement is not WalJudgement.FOREIGN
    with Project.open(path) as project:
        assert project.tree.node("run").notes == "by hand"
    assert set_aside_files(path) == []
