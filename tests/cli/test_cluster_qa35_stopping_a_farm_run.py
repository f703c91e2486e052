"""Stopping `run-queue --cluster local` (Ctrl+C, SIGTERM), as a user does, in its own process.

QA: the command that "goes on from there" dropped `--cluster` (it ran the rest on this
machine); SIGTERM printed Ray's crash report ("*** SIGTERM received at time=... PC: @ ...")
twice, as after a crash; and a Ctrl+C while the local Ray instance was starting left Ray's
agent processes running after the command had said it was interrupted."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from studio.cli import main

pytest.importorskip("ray")

REPO = Path(__file__).resolve().parents[2]


def _queued(tmp_path: Path, turns: int) -> Path:
    demo = tmp_path / "turns.txt"
    demo.write_text("".join(f"Character: Qiqi; Motion: run; Background: forest {i}.\n" for i in range(turns)))
    assert main(["import-demo", str(demo), "--project", str(tmp_path / "story")]) == 0
    path = tmp_path / "story.kamishibai"
    assert main(["fill", str(path)]) == 0
    return path


@pytest.fixture
def ray_folder() -> Iterator[Path]:
    """A Ray temporary folder of the command's own (short: Ray's socket paths are limited),
    by which its Ray processes are told from any other Ray on this machine."""
    folder = Path(tempfile.mkdtemp(prefix="kq", dir="/tmp"))
    yield folder
    for pid in _ray_processes(folder):  # what a failed test left: only the processes it started
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


def _run_queue(path: Path, ray_folder: Path) -> subprocess.Popen[str]:
    """`kamishibai run-queue PATH --cluster local --actors 1`, with Ctrl+C as in a terminal
    (a command started in the background of a script ignores SIGINT)."""
    return subprocess.Popen(
        [sys.executable, "-m", "studio", "run-queue", str(path), "--quiet", "--cluster", "local", "--actors", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "RAY_TMPDIR": str(ray_folder)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _ray_processes(folder: Path, named: str = "") -> list[int]:
    """The live processes (not zombies) started with ``RAY_TMPDIR`` at ``folder`` (the
    command and all Ray started for it: its agents rename themselves, so their command
    line no longer says), whose command line holds ``named``."""
    mark = f"RAY_TMPDIR={folder}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if mark in environ and named.encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def _wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def _job_states(path: Path) -> list[str]:
    database = sqlite3.connect(f"file:{path / 'project.db'}?mode=ro", uri=True, timeout=10)
    try:
        return [status for (status,) in database.execute("SELECT status FROM jobs")]
    finally:
        database.close()


def test_ctrl_c_while_the_local_instance_starts_leaves_no_ray_process(tmp_path: Path, ray_folder: Path) -> None:
    path = _queued(tmp_path, 3)
    command = _run_queue(path, ray_folder)
    try:
        # the raylet starts Ray's agents: the start is under way until they answer
        _wait_for(lambda: bool(_ray_processes(ray_folder, "raylet/raylet")) or command.poll() is not None, 90,
                  "Ray to start its raylet")
        command.send_signal(signal.SIGINT)  # while ray.init is under way
        _, err = command.communicate(timeout=90)
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()
    assert command.returncode == 130, err
    assert "kamishibai: interrupted" in err and "Traceback" not in err
    # Ray's agents of the interrupted start stayed up to a minute after the command ended
    _wait_for(lambda: not _ray_processes(ray_folder), 3, f"Ray's processes to end: {_ray_processes(ray_folder)}")
    assert sorted(set(_job_states(path))) in (["queued"], ["done", "queued"], ["done", "interrupted", "queued"],
                                               ["interrupted", "queued"])


def test_sigterm_mid_run_names_the_farm_in_the_command_that_goes_on(tmp_path: Path, ray_folder: Path) -> None:
    path = _queued(tmp_path, 40)
    command = _run_queue(path, ray_folder)
    try:
        _wait_for(lambda: "running" in _job_states(path) or command.poll() is not None, 120, "a job to run")
        command.send_signal(signal.SIGTERM)
        _, err = command.communicate(timeout=90)
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()
    assert command.returncode == 143, err
    assert "SIGTERM received" not in err and "PC: @" not in err, err  # no crash report for a stop asked for
    assert "kamishibai: terminated (SIGTERM)" in err
    quoted = str(path)
    assert f"`kamishibai run-queue {quoted} --cluster local --actors 1 --requeue-interrupted` goes on from there" \
        in err, err
    states = _job_states(path)
    assert "running" not in states and states.count("interrupted") == 1 and "queued" in states
