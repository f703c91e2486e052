"""`kamishibai queue`, run from another terminal while `run-queue --devices ...` works, says
which device runs each running job and how far it has got (QA: it listed them as running,
nothing more). The real worker with the sketch engine, on two devices; the jobs are held
mid-run by a subscriber of their progress, so that the queue is read while they run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from studio.cli import main
from studio.composition import default_registry
from studio.core.commands import AddTurn
from studio.core.model import new_id
from studio.storage import Project
from studio.worker import EventKind, GenerationService, HostMode, JobEvent, JobStatus, job_queue

REPO = Path(__file__).resolve().parents[2]
WAIT_S = 60.0


def _queue(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> str:
    capsys.readouterr()
    assert main(["queue", str(path), *options]) == 0
    return capsys.readouterr().out


def _other_queue(path: Path, *options: str) -> str:
    """`kamishibai queue` run by another process, as from another terminal (this process's
    own jobs would read as left by a process that is gone)."""
    other = subprocess.run([sys.executable, "-m", "studio", "queue", str(path), *options], capture_output=True,
                           text=True, cwd=REPO, timeout=120, check=False, env=dict(os.environ))
    assert other.returncode == 0, other.stderr
    return other.stdout


class Holder:
    """Holds each job's device thread at its first progress past 0 until released."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.held: set[str] = set()
        self.started: dict[str, str] = {}
        self._lock = threading.Lock()

    def __call__(self, event: JobEvent) -> None:
        if event.kind is EventKind.STARTED:
            self.started[event.job_id] = event.where
        if event.kind is not EventKind.PROGRESS or event.fraction <= 0:
            return
        with self._lock:
            if event.job_id in self.held:
                return
            self.held.add(event.job_id)
        self.release.wait(WAIT_S)


def _until(check: object, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _assert_where_cells(lines: list[str], listed: dict[str, dict[str, object]]) -> None:
    """Each job's line says, under "where", its device and how far it has got ("cuda:1 · 42%")."""
    where_at = lines[0].index("where")
    assert len(lines) == 1 + len(listed), lines
    for line in lines[1:]:
        job = listed[line.split()[0]]
        assert line[where_at:].startswith(f"{job['where']} · {float(job['progress']) * 100:.0f}%  "), line  # type: ignore[arg-type]


@pytest.mark.parametrize(("devices", "places"), [
    (["cuda:0", "cuda:1"], {"cuda:0", "cuda:1"}),
    (["cpu", "cpu"], {"cpu · worker 1", "cpu · worker 2"}),  # two workers of one device are told apart
])
def test_queue_says_which_device_runs_each_running_job(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch, devices: list[str],
                                                      places: set[str]) -> None:
    monkeypatch.setattr(job_queue, "PROGRESS_STORE_S", 0.0)  # every progress is stored (a long job's are, now and then)
    project = Project.create(tmp_path / "story")
    path = project.path
    for name in ("Qiqi", "Yuzu"):  # two branches: they run side by side, one per device
        project.apply(AddTurn(project.tree.root_id, f"Character: {name}; Motion: run; Background: day town.",
                              node_id=new_id()))
    service = GenerationService(project, default_registry(), devices=devices, default_engine="sketch",
                                hosts=HostMode.IN_PROCESS)
    holder = Holder()
    service.subscribe(holder)
    jobs = [job_id for node in project.tree.nodes.values() if not node.is_root for job_id in service.fill(node.id)]
    assert len(jobs) == 2
    service.start()
    try:
        def both_told() -> bool:
            listed = json.loads(_other_queue(path, "--json"))
            return len(listed) == 2 and all(job["status"] == "running" and job["where"] and job["progress"]
                                            for job in listed)

        _until(both_told, "the two jobs never showed running, with where and how far, in `queue --json`")
        listed = {job["id"]: job for job in json.loads(_other_queue(path, "--json"))}
        assert {job["where"] for job in listed.values()} == places
        assert all(0 < job["progress"] < 1 for job in listed.values())
        for job_id in jobs:  # the window's service and the events say the same
            assert service.where(job_id) == listed[job_id]["where"] == holder.started[job_id]

        lines = _other_queue(path).splitlines()
        assert lines[0].split() == ["job", "status", "prio", "engine", "seed", "node", "where", "instruction", "or",
                                    "error"]
        _assert_where_cells(lines, listed)
    finally:
        holder.release.set()
    try:
        assert service.wait_jobs(jobs, WAIT_S)
        assert all(service.job(job_id).status is JobStatus.DONE for job_id in jobs)
        assert all(service.where(job_id) == "" for job_id in jobs)  # runs nowhere now
    finally:
        service.stop(timeout=30)
        project.close()
    ended = json.loads(_queue(path, capsys, "--all", "--json"))
    assert {job["where"] for job in ended} == places  # where each one ran is kept
    assert all(job["progress"] is None and job["status"] == "done" for job in ended)
    assert "where" not in _queue(path, capsys, "--all").splitlines()[0]  # nothing runs: no such column
