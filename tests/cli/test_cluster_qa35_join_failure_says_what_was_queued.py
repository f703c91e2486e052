"""A render farm that can't be joined, through the real command line (a port nothing
listens on): each command says what became of the jobs.

`fill --run --cluster` joins the farm before it queues anything, and its hint ended
"Queued jobs stay queued." though it had queued nothing. Now `fill` says it queued nothing
(and that the jobs queued before it stay queued, when there are some) with the commands
that go on; `run-queue` keeps "Queued jobs stay queued." Both leave the project as it was."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main

pytest.importorskip("ray")

REPO = Path(__file__).resolve().parents[2]
TURNS = ("Character: Qiqi; Motion: run; Background: forest.\n"
         "Character: Qiqi; Motion: jump; Background: day sky.\n")


def _story(tmp_path: Path) -> Path:
    demo = tmp_path / "turns.txt"
    demo.write_text(TURNS)
    assert main(["import-demo", str(demo), "--project", str(tmp_path / "my story")]) == 0
    return tmp_path / "my story.kamishibai"


def _closed_address() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"  # closed once the probe is: nothing listens there


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in its own process, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})


def _jobs(path: Path) -> list[str]:
    database = sqlite3.connect(path / "project.db")
    try:
        return sorted(status for (status,) in database.execute("SELECT status FROM jobs"))
    finally:
        database.close()


def _hint(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("  hint: ")]
    assert len(lines) == 1, stderr
    return lines[0]


def test_fill_run_says_it_queued_nothing_and_what_to_run(tmp_path: Path) -> None:
    path = _story(tmp_path)
    address = _closed_address()
    done = _kamishibai("fill", str(path), "--run", "--quiet", "--cluster", address)
    assert done.returncode == 2, done.stderr
    assert f"Could not connect to the Ray cluster ({address}): nothing takes connections" in done.stderr
    hint = _hint(done.stderr)
    assert "stay queued" not in hint, hint
    assert "This fill queued nothing (the project is as it was)." in hint
    quoted = f"'{path}'"  # a path with a space, as a shell takes it back
    assert f"`kamishibai fill {quoted} --run` to generate the turns without a take on this machine" in hint
    assert f"`kamishibai run-queue {quoted} --cluster {address}`" in hint
    assert "Traceback" not in done.stderr
    assert _jobs(path) == []  # nothing queued, nothing lost


def test_fill_run_names_the_jobs_queued_before_it(tmp_path: Path) -> None:
    path = _story(tmp_path)
    assert main(["fill", str(path)]) == 0  # two turns queued by an earlier fill
    done = _kamishibai("fill", str(path), "--run", "--quiet", "--cluster", _closed_address())
    assert done.returncode == 2, done.stderr
    hint = _hint(done.stderr)
    assert "This fill queued nothing; the 2 jobs queued before it stay queued." in hint, hint
    assert _jobs(path) == ["queued", "queued"]


def test_run_queue_keeps_saying_the_queued_jobs_stay_queued(tmp_path: Path) -> None:
    path = _story(tmp_path)
    assert main(["fill", str(path)]) == 0
    done = _kamishibai("run-queue", str(path), "--quiet", "--cluster", _closed_address())
    assert done.returncode == 2, done.stderr
    hint = _hint(done.stderr)
    assert hint.endswith("Queued jobs stay queued.") and "queued nothing" not in hint, hint
    assert _jobs(path) == ["queued", "queued"]
