"""A Save a copy killed while it wrote its bundle left a ``.kamishibai-copy-*`` folder as big as
the project; only the next copy into the same place removed it, and there may never be one. A
schema upgrade killed while it backed the database up left ``.project.db.bak-vN.part``, which
nothing removed. Opening a project for writing now removes both kinds of leftovers: the copy
folders beside the project and the half-made backups in it, once the process that wrote them
is gone; never one a live process still writes (it holds a lock, as the bundle's temporary
files do). Real processes are killed (-9) or paused (SIGSTOP, which keeps their locks) midway."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from older_schemas import rewound_to_schema  # tests/ is on sys.path
from stop_midway import reaped

from studio.core import AddTurn
from studio.storage import Project
from studio.storage.database import sweep_backup_parts

MEDIA_BYTES = 48 * 1024 * 1024
SCRATCH = ".kamishibai-copy-"
COPY = ("import sys; from pathlib import Path; from studio.storage import Project; "
        "from studio.ui.session import save_copy; "
        "save_copy(Project.open(Path(sys.argv[1]), read_only=True), sys.argv[2]).close()")


def _scratch(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.startswith(SCRATCH))


def _copy(source: Path, dest: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.Popen([sys.executable, "-c", COPY, str(source), str(dest)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _stop_while_bundling(process: subprocess.Popen[bytes], folder: Path, sig: signal.Signals,
                         others: tuple[Path, ...] = ()) -> Path:
    """Send ``sig`` to the copy ``process`` once its scratch folder (not one of ``others``)
    holds part of its bundle; returns that folder."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for scratch in (p for p in _scratch(folder) if p not in others):
            if sum(p.stat().st_size for p in scratch.iterdir() if p.is_file()) > 64 * 1024:
                process.send_signal(sig)
                return scratch
        assert process.poll() is None, "the copy ended before it could be stopped"
        time.sleep(0.005)
    raise AssertionError("the copy's scratch folder never appeared")


def test_opening_a_project_removes_a_killed_copys_folder_beside_it_not_a_live_one(tmp_path: Path) -> None:
    from studio.storage.staging import COPY_SCRATCH_PREFIX
    from studio.ui.session import COPY_SCRATCH_PREFIX as WINDOWS_PREFIX

    assert COPY_SCRATCH_PREFIX == WINDOWS_PREFIX == SCRATCH, "the opening sweeps what Save a copy names"
    Project.create(tmp_path / "story").close()
    (tmp_path / "story.kamishibai" / "media" / "noise.bin").write_bytes(os.urandom(MEDIA_BYTES))
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    Project.create(shelf / "neighbour").close()
    with reaped(_copy(tmp_path / "story.kamishibai", shelf / "two")) as paused:
        live = _stop_while_bundling(paused, shelf, signal.SIGSTOP)
        with reaped(_copy(tmp_path / "story.kamishibai", shelf / "one")) as killed:
            left = _stop_while_bundling(killed, shelf, signal.SIGKILL, others=(live,))
        assert left.is_dir() and live.is_dir()
        Project.open(shelf / "neighbour.kamishibai", read_only=True).close()
        assert left.is_dir(), "opening to read changes nothing"
        Project.open(shelf / "neighbour.kamishibai").close()  # for writing, as the window and `note` do
        assert not left.exists(), "the killed copy's folder stayed beside the project"
        assert live.is_dir(), "the folder of a copy another studio still makes was removed"
        paused.send_signal(signal.SIGCONT)
        assert paused.wait(timeout=180) == 0, paused.stderr.read() if paused.stderr else ""
    assert _scratch(shelf) == []
    with Project.open(shelf / "two.kamishibai", read_only=True) as made:
        assert made.name == "two", "the copy that was paused is whole"


def _schema_5_project(folder: Path) -> Path:
    """A project as schema 5 wrote it, its database large enough for a backup to be caught midway."""
    with Project.create(folder) as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town",
                              node_id="n1"))
        path = project.path
    with sqlite3.connect(path / "project.db") as db:
        db.execute("UPDATE nodes SET notes = ? WHERE id = 'n1'", (os.urandom(MEDIA_BYTES // 2).hex(),))
    db.close()
    with rewound_to_schema(path, 5) as conn:
        conn.execute("ALTER TABLE takes DROP COLUMN start_state")
    return path


def _stop_while_backing_up(process: subprocess.Popen[bytes], part: Path, sig: signal.Signals) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if part.stat().st_size > 64 * 1024:
                process.send_signal(sig)
                return
        except FileNotFoundError:
            pass
        assert process.poll() is None, "the upgrade ended before it could be stopped"
        time.sleep(0.002)
    raise AssertionError("the backup never appeared")


def _note(project: Path) -> subprocess.Popen[bytes]:
    """`kamishibai note`, which opens the project for writing: an old one is backed up first."""
    return subprocess.Popen([sys.executable, "-m", "studio", "note", str(project), "n1", "by the river"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)


def test_a_backup_cut_short_is_removed_once_its_process_is_gone_never_before(tmp_path: Path) -> None:
    project = _schema_5_project(tmp_path / "old")
    database = project / "project.db"
    part = project / ".project.db.bak-v5.part"

    with reaped(_note(project)) as paused:
        _stop_while_backing_up(paused, part, signal.SIGSTOP)
        assert sweep_backup_parts(database) == [] and part.is_file(), "a backup still being made was removed"
        paused.send_signal(signal.SIGKILL)
    assert part.is_file() and not (project / "project.db.bak-v5").exists()

    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == ("5",)
    db.close()
    assert sweep_backup_parts(database) == [part], "the killed backup is told from a live one"
    assert not part.exists()


def test_opening_for_writing_sweeps_a_killed_backup_before_backing_up_again(tmp_path: Path) -> None:
    project = _schema_5_project(tmp_path / "old")
    part = project / ".project.db.bak-v5.part"
    with reaped(_note(project)) as killed:
        _stop_while_backing_up(killed, part, signal.SIGKILL)
    assert part.is_file()

    again = _note(project)
    assert again.wait(timeout=180) == 0, again.stderr.read() if again.stderr else ""
    assert not part.exists()
    backup = project / "project.db.bak-v5"
    with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == ("5",)
    db.close()
    assert [p.name for p in project.iterdir() if p.name.endswith((".part", ".part-journal"))] == []
