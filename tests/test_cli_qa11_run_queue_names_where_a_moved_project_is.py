"""A project folder moved while `run-queue` ran: its job failed saying so, and the hint that
followed named the old path ("`kamishibai fill OLD --run` queues the turns left ..."), where
the command finds no project. The commands said after the run now name the folder where the
project is, and a line says that it moved."""

from __future__ import annotations

import shlex
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from studio.cli import main
from studio.cli.generate_cmds import project_path_now
from studio.storage import Project

TURNS = 12


def _queued_story(tmp_path: Path) -> Path:
    demo = tmp_path / "demo.txt"
    demo.write_text("".join(f"Character: Qiqi; Motion: run; Background: day town.\n> Qiqi: line {n}\n"
                            for n in range(TURNS)), encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    assert main(["fill", str(project)]) == 0
    return project


def _started(db: Path) -> bool:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
        statuses = [row[0] for row in conn.execute("SELECT status FROM jobs")]
    conn.close()
    return any(status != "queued" for status in statuses)


def test_the_fill_hint_names_the_folder_where_the_project_is_now(tmp_path: Path) -> None:
    project = _queued_story(tmp_path)
    moved = tmp_path / "moved" / "story.kamishibai"
    moved.parent.mkdir()
    run = subprocess.Popen([sys.executable, "-m", "studio", "run-queue", str(project), "--quiet"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while not _started(project / "project.db"):
            assert run.poll() is None, run.communicate()
            time.sleep(0.05)
        project.rename(moved)  # while the first job runs: it fails, the jobs after it are cancelled
        _out, err = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 1, err
    assert "was moved" in err, err
    assert f"`kamishibai fill {shlex.quote(str(moved))} --run`" in err, err
    assert f"kamishibai fill {shlex.quote(str(project))} " not in err, err


def test_where_an_open_project_went(tmp_path: Path) -> None:
    folder = tmp_path / "story.kamishibai"
    Project.create(folder).close()
    with Project.open(folder) as project:
        assert project_path_now(project, "story.kamishibai") == ("story.kamishibai", "")
        folder.rename(tmp_path / "elsewhere.kamishibai")
        path, said = project_path_now(project, "story.kamishibai")
        assert path == str(tmp_path / "elsewhere.kamishibai")
        assert f"moved to {tmp_path / 'elsewhere.kamishibai'}" in said


def test_a_deleted_project_folder_is_said_to_be_gone(tmp_path: Path) -> None:
    folder = tmp_path / "story.kamishibai"
    Project.create(folder).close()
    with Project.open(folder) as project:
        kept = tmp_path / "kept.db"
        (folder / "project.db").rename(kept)  # the open database stays reachable only by its handle
        kept.unlink()
        path, said = project_path_now(project, "story.kamishibai")
        assert path == "story.kamishibai"
        assert "moved or deleted" in said and "put it back" in said
