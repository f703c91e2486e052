"""Jobs that can't run say so (issue 11, item 14)."""

from __future__ import annotations

import json
import socket
import sqlite3
from pathlib import Path

from .conftest import kamishibai, new_project, play


def _blocked_queue(tmp_path: Path) -> tuple[Path, list[str]]:
    from studio.composition import default_registry
    from studio.storage import Project
    from studio.worker import GenerationService

    path = new_project(tmp_path / "blocked")
    first = play(path)["node"]
    play(path)
    play(path)
    project = Project.open(path)
    try:
        service = GenerationService(project, default_registry())
        job_ids = service.reroll_branch(first, settings={"frames": 3, "width": 64, "height": 48})
    finally:
        project.close()
    conn = sqlite3.connect(path / "project.db")
    with conn:
        conn.execute("UPDATE jobs SET status='running', owner=?, take_id='ffffffffff' WHERE id=?",
                     (f"{socket.gethostname()}:{2**22 + 99}", job_ids[0]))
    conn.close()
    return path, job_ids


def test_jobs_behind_an_interrupted_job_are_shown_blocked(tmp_path: Path) -> None:
    path, job_ids = _blocked_queue(tmp_path)
    listed = kamishibai("queue", str(path))
    assert listed.returncode == 0
    lines = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
    assert "interrupted" in lines[job_ids[0]]
    for job_id in job_ids[1:]:
        assert "blocked" in lines[job_id] and job_ids[0] in lines[job_id], listed.stdout
    as_json = {j["id"]: j for j in json.loads(kamishibai("queue", str(path), "--json").stdout)}
    assert as_json[job_ids[2]]["status"] == "blocked" and as_json[job_ids[2]]["blocked_by"] == job_ids[0]

    ran = kamishibai("run-queue", str(path), "--quiet")
    assert ran.returncode == 1, ran.stderr
    assert "2 job(s) wait for interrupted job(s)" in ran.stderr and "--requeue-interrupted" in ran.stderr

    ran = kamishibai("run-queue", str(path), "--quiet", "--requeue-interrupted")
    assert ran.returncode == 0, ran.stderr
    assert "3 done, 0 failed, 0 cancelled" in ran.stderr
