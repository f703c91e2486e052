"""`queue` shows a job whose process died right after committing its take as done, as the
next writer settles it (QA: after a `run-queue` was killed between writing a take and
marking its job done, `queue` listed that job as interrupted and every job after it as
blocked, asking for `run-queue --requeue-interrupted`; `run-queue` itself then found the
job done and ran the others without it)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main

DEAD_OWNER = "no-such-host:1:"
"""A job owner that is no live process (another host's, which this one can't see alive)."""


@pytest.fixture
def generated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return import_demo_project(tmp_path, monkeypatch, generate=True)


def _queue(project: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, object]]:
    capsys.readouterr()
    assert main(["queue", str(project), "--all", "--json"]) == 0
    return {str(job["id"]): job for job in json.loads(capsys.readouterr().out)}


def _left_running(project: Path, *, take_committed: bool) -> tuple[str, str]:
    """The first turn's job left running by a dead process (its take row kept, or not), the
    second's queued again behind it: the state a kill -9 at that moment leaves."""
    with sqlite3.connect(project / "project.db") as db:
        first, second = (row[0] for row in db.execute("SELECT id FROM jobs ORDER BY sequence"))
        if not take_committed:
            take = db.execute("SELECT take_id FROM jobs WHERE id = ?", (first,)).fetchone()[0]
            db.execute("UPDATE nodes SET selected_take_id = NULL WHERE selected_take_id = ?", (take,))
            db.execute("DELETE FROM takes WHERE id = ?", (take,))
        db.execute("UPDATE jobs SET status='running', owner=?, finished_at='' WHERE id=?", (DEAD_OWNER, first))
        db.execute("UPDATE jobs SET status='queued', take_id='', started_at='', finished_at='' WHERE id=?",
                   (second,))
    return first, second


def test_a_job_whose_take_was_committed_reads_done_and_blocks_nothing(
        generated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = _left_running(generated, take_committed=True)
    listed = _queue(generated, capsys)
    assert listed[first]["status"] == "done" and listed[first]["error"] == ""
    assert listed[second]["status"] == "queued" and listed[second]["blocked_by"] is None
    assert main(["run-queue", str(generated), "--quiet"]) == 0  # the writer settles it the same way
    after = _queue(generated, capsys)
    assert after[first]["status"] == "done" and after[second]["status"] == "done"


def test_a_job_without_a_take_still_reads_interrupted(generated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = _left_running(generated, take_committed=False)
    listed = _queue(generated, capsys)
    assert listed[first]["status"] == "interrupted"
    assert listed[second]["status"] == "blocked" and listed[second]["blocked_by"] == first
