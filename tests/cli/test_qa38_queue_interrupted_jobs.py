"""An interrupted job nobody wants any more blocked `run-queue` for good (exit status 1, every
time), and the command line could not cancel it: only --requeue-interrupted, which makes one
more take. Now `queue --cancel JOB` / `--cancel-interrupted` cancel jobs as the studio's queue
does, a `reroll` of the turn replaces its interrupted job, and run-queue's message names the
commands. A `sample` stopped midway says, when run again, how many turns it left without a clip
and which command makes them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.core.jobs import JobStatus
from studio.storage import Project
from studio.storage.job_store import INTERRUPTED_MESSAGE, JobStore
from tests.process_state import engine_process_of


def _jobs(project: Path) -> dict[str, JobStatus]:
    with Project.open(project, read_only=True) as opened:
        return {job.id: job.status for job in JobStore(opened.database).load()}


def _interrupt_first_job(project: Path) -> tuple[str, list[str]]:
    """`fill` the project (queued, not run), then leave its first job as a crash leaves it once
    the next writer settled it: interrupted, its turn without a take. Returns (its id, the
    other jobs' ids: they wait for it)."""
    assert main(["fill", str(project), "--json"]) == 0
    with Project.open(project) as opened:
        store = JobStore(opened.database)
        first, *rest = sorted(store.load(), key=lambda job: job.sequence)
        store.save(replace(first, status=JobStatus.INTERRUPTED, error=INTERRUPTED_MESSAGE,
                           started_at=first.created_at))
    return first.id, [job.id for job in rest]


def test_run_queue_names_the_cancel_command_and_it_unblocks_the_queue(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    project = import_demo_project(tmp_path, monkeypatch)
    interrupted, waiting = _interrupt_first_job(project)
    capsys.readouterr()
    assert main(["run-queue", str(project), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"kamishibai queue {project} --cancel-interrupted" in err, err
    assert "in the studio" not in err, err

    assert main(["queue", str(project), "--cancel-interrupted"]) == 0
    out = capsys.readouterr().out
    assert f"cancelled job {interrupted}" in out, out
    assert all(f"cancelled job {job_id}" in out for job_id in waiting), out  # they waited for it
    assert set(_jobs(project).values()) == {JobStatus.CANCELLED}
    assert "kamishibai fill" in out, out  # the turns have no take: how to queue them again
    assert main(["run-queue", str(project), "--quiet"]) == 0
    assert main(["queue", str(project), "--cancel-interrupted"]) == 0
    assert "no interrupted job to cancel" in capsys.readouterr().out


def test_cancel_by_id_prefix_and_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    project = import_demo_project(tmp_path, monkeypatch)
    interrupted, waiting = _interrupt_first_job(project)
    capsys.readouterr()
    assert main(["queue", str(project), "--cancel", waiting[0][:6], "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(job["id"], job["status"]) for job in listed] == [(waiting[0], "cancelled")]
    jobs = _jobs(project)
    assert jobs[interrupted] is JobStatus.INTERRUPTED  # the others are left alone


def test_a_wrong_job_cancels_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    project = import_demo_project(tmp_path, monkeypatch)
    interrupted, _waiting = _interrupt_first_job(project)
    before = _jobs(project)
    capsys.readouterr()
    assert main(["queue", str(project), "--cancel", interrupted, "nosuchjob"]) == 2
    err = capsys.readouterr().err
    assert "No job 'nosuchjob'" in err and "nothing was cancelled" in err and "--all" in err, err
    assert _jobs(project) == before

    assert main(["queue", str(project), "--cancel", interrupted]) == 0
    capsys.readouterr()
    assert main(["queue", str(project), "--cancel", interrupted]) == 2  # finished now
    err = capsys.readouterr().err
    assert f"Job {interrupted} is cancelled already" in err, err


def test_reroll_replaces_the_turns_interrupted_job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    project = import_demo_project(tmp_path, monkeypatch)
    interrupted, waiting = _interrupt_first_job(project)
    with Project.open(project, read_only=True) as opened:
        turn = {job.id: job.node_id for job in JobStore(opened.database).load()}[interrupted]
    capsys.readouterr()
    assert main(["reroll", str(project), str(turn), "--engine", "sketch"]) == 0
    err = capsys.readouterr().err
    assert f"cancelled 1 interrupted job of this turn ({interrupted})" in err, err
    jobs = _jobs(project)
    assert jobs[interrupted] is JobStatus.CANCELLED
    assert all(jobs[job_id] is JobStatus.QUEUED for job_id in waiting)  # they wait for the re-roll's job now
    capsys.readouterr()
    assert main(["run-queue", str(project), "--quiet"]) == 0, capsys.readouterr().err
    jobs = _jobs(project)
    assert all(jobs[job_id] is JobStatus.DONE for job_id in waiting)


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the engine process through /proc")
def test_killed_play_then_reroll_leaves_run_queue_green(tmp_path: Path) -> None:
    """The user's steps: a `play` killed with SIGKILL while it generates, a `reroll` of its turn,
    then `run-queue` exited 1 with "1 interrupted job(s) left" every time."""
    project = tmp_path / "kill.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    play = subprocess.Popen([sys.executable, "-m", "studio", "play", str(project), "Qiqi runs", "Qiqi swims",
                             "--engine-host", "process"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while play.poll() is None and engine_process_of(play.pid) is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(play.pid, signal.SIGKILL)
    play.wait()
    (job,) = json.loads(kamishibai("queue", str(project), "--json").stdout)
    assert job["status"] == "interrupted", job

    rerolled = kamishibai("reroll", str(project), job["node"][:6], "--engine", "sketch")
    assert rerolled.returncode == 0, rerolled.stderr
    ran = kamishibai("run-queue", str(project), "--quiet")
    assert ran.returncode == 0, ran.stderr
    assert "interrupted" not in ran.stderr, ran.stderr


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the engine process through /proc")
def test_a_killed_sample_says_what_it_left_when_run_again(tmp_path: Path) -> None:
    folder = tmp_path / "ks.kamishibai"
    sample = subprocess.Popen([sys.executable, "-m", "studio", "sample", str(tmp_path / "ks")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while sample.poll() is None and engine_process_of(sample.pid) is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(sample.pid, signal.SIGKILL)
    sample.wait()
    tree = json.loads(kamishibai("tree", str(folder), "--json").stdout)
    turns = [node for node in tree["nodes"] if node.get("parent")]
    bare = [node for node in turns if not any(take["status"] == "done" for take in node["takes"])]
    assert bare, tree  # killed before its last turn was made

    again = kamishibai("sample", str(tmp_path / "ks"))
    assert again.returncode != 0
    said = f"{len(bare)} of its {len(turns)} turns have no clip yet (its generation was stopped)"
    assert said in again.stderr, again.stderr
    assert f"kamishibai fill {folder} --run" in again.stderr, again.stderr

    kept = kamishibai("sample", str(tmp_path / "ks"), "--keep-intact")
    assert kept.returncode == 0, kept.stderr
    assert said in kept.stderr and f"kamishibai fill {folder} --run" in kept.stderr, kept.stderr

    filled = kamishibai("fill", str(folder), "--run", "--quiet")
    assert filled.returncode == 0, filled.stderr
    kept = kamishibai("sample", str(tmp_path / "ks"), "--keep-intact")
    assert kept.returncode == 0 and "no clip" not in kept.stderr, kept.stderr
