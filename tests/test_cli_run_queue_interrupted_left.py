"""`run-queue` without --requeue-interrupted leaves interrupted jobs as they are, and says
so with exit status 1: the queue is not done, and a script must be able to tell. QA: with
only an interrupted job left it printed "nothing to run" and exited 0, as if every turn
had its take; after running the other jobs it exited 0 without naming it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main

DEAD_OWNER = "no-such-host:1:"
"""A job owner that is no live process: the next writer settles its running job as interrupted."""


def _queued(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, turns: int) -> tuple[Path, list[str]]:
    """A project of ``turns`` imported turns, a job queued for each (`fill`), in order."""
    project = import_demo_project(tmp_path, monkeypatch, ("Character: Qiqi; Motion: run; Background: day town.",
                                                          "Character: Qiqi; Motion: jump; Background: day town.")
                                  [:turns])
    assert main(["fill", str(project)]) == 0
    with sqlite3.connect(project / "project.db") as db:
        return project, [row[0] for row in db.execute("SELECT id FROM jobs ORDER BY sequence")]


def _kill_midway(project: Path, job_id: str) -> None:
    """``job_id`` left running by a process that died before its take was made (kill -9)."""
    with sqlite3.connect(project / "project.db") as db:
        db.execute("UPDATE jobs SET status='running', owner=?, started_at='2026-01-01T00:00:00' WHERE id=?",
                   (DEAD_OWNER, job_id))


def _statuses(project: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    capsys.readouterr()
    assert main(["queue", str(project), "--all", "--json"]) == 0
    return {str(job["id"]): str(job["status"]) for job in json.loads(capsys.readouterr().out)}


def test_only_an_interrupted_job_left_exits_1_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    project, (job,) = _queued(tmp_path, monkeypatch, 1)
    _kill_midway(project, job)
    capsys.readouterr()
    assert main(["run-queue", str(project), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"nothing was run: 1 interrupted job(s) left, not run again: {job}." in err, err
    assert f"`kamishibai run-queue {project} --requeue-interrupted`" in err, err
    assert _statuses(project, capsys) == {job: "interrupted"}, "left as it was"
    assert main(["run-queue", str(project), "--quiet", "--requeue-interrupted"]) == 0  # the command it names works
    assert "done" in _statuses(project, capsys).values()
    assert main(["run-queue", str(project), "--quiet"]) == 0  # nothing left at all: done
    assert "nothing to run" in capsys.readouterr().err


def test_an_interrupted_job_nothing_waits_for_is_named_after_the_others_ran(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    project, (first, second) = _queued(tmp_path, monkeypatch, 2)
    _kill_midway(project, first)
    with sqlite3.connect(project / "project.db") as db:  # the second runs on its own (as a job of another branch)
        db.execute("UPDATE jobs SET depends_on=NULL WHERE id=?", (second,))
    capsys.readouterr()
    assert main(["run-queue", str(project), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "1 done, 0 failed, 0 cancelled" in err, err
    assert f"1 interrupted job(s) left, not run again: {first}." in err, err
    assert _statuses(project, capsys) == {first: "interrupted", second: "done"}


def test_jobs_waiting_for_an_interrupted_one_name_it_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    project, (first, _second) = _queued(tmp_path, monkeypatch, 2)
    _kill_midway(project, first)
    capsys.readouterr()
    assert main(["run-queue", str(project), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"1 job(s) wait for interrupted job(s) {first} and did not run." in err, err
    assert "interrupted job(s) left" not in err, "named once, by the message about the jobs that wait for it"
