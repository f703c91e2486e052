"""Ctrl+C in a terminal, and `timeout -s INT`, may deliver a second SIGINT while `run-queue`
or `reroll --branch` is stopping its job. That second one cut the stop short: the project was
closed while the worker stored the job's end ("could not store the end of job … Cannot operate
on a closed database"), no summary or hint was said, and `reroll --json` listed the stopped
turn as still running. Now the stop finishes first, whatever comes meanwhile. The job it
stopped says so ("Stopped by Ctrl+C."), not that a studio stopped while none was open."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.process_state import engine_process_of

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the engine process through /proc")

DEMO = ("Character: Qiqi; Motion: fly; Background: day sky.\n"
        "Character: Yuzu; Motion: wave; Background: day bakery.\n"
        "Character: Qiqi; Motion: walk; Background: sunset street.\n")


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)


def _imported(tmp_path: Path) -> Path:
    demo = tmp_path / "d.txt"
    demo.write_text(DEMO, encoding="utf-8")
    project = tmp_path / "qb.kamishibai"
    made = kamishibai("import-demo", str(demo), "--project", str(project))
    assert made.returncode == 0, made.stderr
    return project


def _interrupt_twice(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the command; once its engine process runs, send SIGINT, and a second one shortly after."""
    run = subprocess.Popen([sys.executable, "-m", "studio", *args], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while run.poll() is None and engine_process_of(run.pid) is None and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.2)
        os.kill(run.pid, signal.SIGINT)
        time.sleep(0.15)
        if run.poll() is None:
            os.kill(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    return subprocess.CompletedProcess(run.args, run.returncode, out, err)


def _jobs(project: Path) -> list[dict[str, object]]:
    listed = kamishibai("queue", str(project), "--all", "--json")
    assert listed.returncode == 0, listed.stderr
    jobs: list[dict[str, object]] = json.loads(listed.stdout)
    return jobs


def test_run_queue_stopped_by_two_sigints_says_what_is_left(tmp_path: Path) -> None:
    project = _imported(tmp_path)
    assert kamishibai("fill", str(project)).returncode == 0
    stopped = _interrupt_twice("run-queue", str(project), "-q", "--engine-host", "process")
    assert stopped.returncode == 130, stopped.stderr
    assert "could not store the end" not in stopped.stderr
    assert "stopped:" in stopped.stderr, stopped.stderr
    assert "--requeue-interrupted` goes on from there" in stopped.stderr
    jobs = _jobs(project)
    assert "running" not in [job["status"] for job in jobs], jobs
    (stopped_job,) = [job for job in jobs if job["status"] == "interrupted"]
    assert str(stopped_job["error"]).startswith("Stopped by Ctrl+C"), stopped_job  # no studio was open
    shown = kamishibai("queue", str(project))
    assert "Stopped by Ctrl+C" in shown.stdout and "The studio stopped" not in shown.stdout, shown.stdout
    went_on = kamishibai("run-queue", str(project), "-q", "--requeue-interrupted")
    assert went_on.returncode == 0, went_on.stderr
    assert {job["status"] for job in _jobs(project)} <= {"done"}


def test_reroll_branch_json_stopped_by_two_sigints_marks_the_stopped_turn(tmp_path: Path) -> None:
    project = _imported(tmp_path)
    assert kamishibai("fill", str(project), "--run").returncode == 0
    tree = json.loads(kamishibai("tree", str(project), "--json").stdout)
    first = next(node["id"] for node in tree["nodes"] if node.get("parent") == tree["root"])
    stopped = _interrupt_twice("reroll", str(project), first, "--branch", "--json", "--engine-host", "process")
    assert stopped.returncode == 130, stopped.stderr
    results = json.loads(stopped.stdout)
    assert len(results) == 3
    assert all(result["job_status"] != "running" for result in results), results
    assert any(result.get("interrupted") for result in results), results
