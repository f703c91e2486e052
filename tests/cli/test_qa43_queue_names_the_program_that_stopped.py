"""After `kamishibai play` was killed with -9 while it generated, `kamishibai queue` said "The
studio stopped while this job was running.", though the window was never open. A job now
records which program ran it (a command by its name, or the window), and the queue says that
one stopped: "`kamishibai play` stopped while this job was running.", before the next writer
settles the job and after. A job a version that did not record it left running still reads
"The studio stopped ..."."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.job_store import INTERRUPTED_MESSAGE, JobStore, project_identity

PLAY_STOPPED = "`kamishibai play` stopped while this job was running."


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)


def _running_jobs(project: Path) -> list[str]:
    try:
        with sqlite3.connect(f"file:{project / 'project.db'}?mode=ro", uri=True, timeout=5) as db:
            return [row[0] for row in db.execute("SELECT id FROM jobs WHERE status='running'")]
    except sqlite3.Error:
        return []


def _queue(project: Path) -> list[dict[str, object]]:
    done = kamishibai("queue", str(project), "--json")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert isinstance(listed, list)
    return listed


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="tells a live process from a dead one through /proc")
def test_a_killed_play_is_named_as_what_stopped(tmp_path: Path) -> None:
    project = tmp_path / "kill.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    play = subprocess.Popen([sys.executable, "-m", "studio", "play", str(project), "Qiqi runs", "Qiqi swims",
                             "Qiqi sleeps", "--engine-host", "process"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while play.poll() is None and not _running_jobs(project) and time.monotonic() < deadline:
            time.sleep(0.005)
        os.kill(play.pid, signal.SIGSTOP)  # held while it runs the job: the queue sees it alive
        (running,) = _running_jobs(project)
        (job,) = [job for job in _queue(project) if job["id"] == running]
        assert job["status"] == "running", job
        os.kill(play.pid, signal.SIGKILL)
    finally:
        play.kill()
        play.wait()

    (job,) = [job for job in _queue(project) if job["id"] == running]
    assert (job["status"], job["error"]) == ("interrupted", PLAY_STOPPED)
    text = kamishibai("queue", str(project))
    assert PLAY_STOPPED in text.stdout, text.stdout
    assert "The studio stopped" not in text.stdout + text.stderr

    with Project.open(project) as opened:  # the next writer settles it, with the same words
        store = JobStore(opened.database)
        store.recover(opened.remove_take_media)
        stored = store.get(running)
    assert stored is not None and stored.error == PLAY_STOPPED
    (job,) = [job for job in _queue(project) if job["id"] == running]
    assert job["error"] == PLAY_STOPPED


def test_a_job_an_earlier_version_left_running_says_the_studio_stopped(tmp_path: Path) -> None:
    project = tmp_path / "old.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    owner = f"{socket.gethostname()}:{int(dead.stdout)}|{project_identity(project)}"  # no program in it
    with sqlite3.connect(project / "project.db") as db:
        db.execute("INSERT INTO jobs (id, kind, node_id, status, sequence, owner) "
                   "VALUES ('oldjob', 'generate', '', 'running', 1, ?)", (owner,))
    (job,) = _queue(project)
    assert (job["status"], job["error"]) == ("interrupted", INTERRUPTED_MESSAGE)
