"""A `fill --run` stopped mid-way leaves its running job interrupted and the jobs of the turns
below waiting for it. `fill` again queued a second job for that turn beside the interrupted
one, and the turns below went on waiting for the interrupted job: `run-queue` then made the
turn's take and ended with "2 job(s) wait for interrupted job(s)", exit 1. `fill` now queues
the interrupted job again instead (its seed and place kept), and the chain runs through."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)


def _jobs(project: Path) -> list[dict[str, Any]]:
    listed = kamishibai("queue", str(project), "--all", "--json")
    assert listed.returncode == 0, listed.stderr
    jobs: list[dict[str, Any]] = json.loads(listed.stdout)
    return jobs


def test_fill_queues_the_interrupted_job_again_and_the_chain_runs_through(tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Qiqi runs\nQiqi jumps\nQiqi waves\n", encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    assert kamishibai("import-demo", str(demo), "--project", str(project)).returncode == 0
    queued = kamishibai("fill", str(project), "--setting", "frames=3")
    assert queued.returncode == 0, queued.stderr
    tree = json.loads(kamishibai("tree", str(project), "--json").stdout)
    first = _jobs(project)
    assert len(first) == 3
    # the first turn's job was running when its process was killed (as `kill -9` leaves it)
    top = next(job for job in first if job["depends_on"] is None)
    with sqlite3.connect(project / "project.db") as db:
        db.execute("UPDATE jobs SET status = 'running', started_at = '2026-12-05T10:00:00Z' WHERE id = ?",
                   (top["id"],))
    db.close()

    again = kamishibai("fill", str(project))
    assert again.returncode == 0, again.stderr
    assert "queued again 1 interrupted job" in again.stdout, again.stdout
    assert "without a take" not in again.stdout, "no second job beside it"
    jobs = {job["id"]: job for job in _jobs(project)}
    assert set(jobs) == {job["id"] for job in first}, "the same three jobs, none added"
    assert jobs[top["id"]]["status"] == "queued" and jobs[top["id"]]["seed"] == top["seed"]

    ran = kamishibai("run-queue", str(project), "-q")
    assert ran.returncode == 0, ran.stderr
    after = json.loads(kamishibai("tree", str(project), "--json").stdout)
    assert [node["id"] for node in tree["nodes"]] == [node["id"] for node in after["nodes"]]
    turns = [node for node in after["nodes"] if node["parent"] is not None]
    assert [len(node["takes"]) for node in turns] == [1, 1, 1], "one take a turn: none made twice"
