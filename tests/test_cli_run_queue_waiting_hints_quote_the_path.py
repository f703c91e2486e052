"""`run-queue`'s hints about the jobs it left queued (waiting for an interrupted job, or for
an engine that can't run here) quote the project's path as the other hints do, so that the
command they name can be pasted into a shell. QA: with a project in "my stories/" the hint
read `kamishibai run-queue /…/my stories/story.kamishibai --requeue-interrupted`, which the
shell splits into two arguments."""

from __future__ import annotations

import shlex
import sqlite3
from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main

TURNS = ("Character: Qiqi; Motion: run; Background: day town.",
         "Character: Qiqi; Motion: jump; Background: day town.")


def _queued(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[str]]:
    """A project under a folder whose name has a space, a job queued for each of its two turns."""
    folder = tmp_path / "my stories"
    folder.mkdir()
    project = import_demo_project(folder, monkeypatch, TURNS)
    assert main(["fill", str(project)]) == 0
    with sqlite3.connect(project / "project.db") as db:
        return project, [row[0] for row in db.execute("SELECT id FROM jobs ORDER BY sequence")]


def _hinted_commands(err: str) -> list[list[str]]:
    """Each `kamishibai ...` command the hints name, split as a shell would."""
    return [shlex.split(part) for part in err.split("`")[1::2] if part.startswith("kamishibai ")]


def test_jobs_waiting_for_an_interrupted_one_name_a_command_that_pastes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    project, (first, _second) = _queued(tmp_path, monkeypatch)
    with sqlite3.connect(project / "project.db") as db:  # left running by a process that died (kill -9)
        db.execute("UPDATE jobs SET status='running', owner='no-such-host:1:', started_at='2026-01-01T00:00:00' "
                   "WHERE id=?", (first,))
    capsys.readouterr()
    assert main(["run-queue", str(project), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"1 job(s) wait for interrupted job(s) {first}" in err, err
    assert ["kamishibai", "run-queue", str(project), "--requeue-interrupted"] in _hinted_commands(err), err


def test_jobs_for_an_engine_that_cant_run_here_name_a_command_that_pastes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    project, _jobs = _queued(tmp_path, monkeypatch)
    with sqlite3.connect(project / "project.db") as db:  # queued for an engine whose weights are not here
        db.execute("UPDATE jobs SET engine='customx'")
    capsys.readouterr()
    (tmp_path / "none").mkdir()  # a folder without weights (a missing one is refused as mistyped)
    assert main(["run-queue", str(project), "--quiet", "--checkpoints", str(tmp_path / "none")]) == 1
    err = capsys.readouterr().err
    assert "2 job(s) wait:" in err and "customx" in err, err
    assert ["kamishibai", "run-queue", str(project)] in _hinted_commands(err), err
