"""A job is marked running with its owner, ``host:pid``; a later start of the studio leaves
a running job to an owner that is still alive. After a crash or a power cut, the dead
owner's pid is often given to another process (always after a reboot: the pids start over),
and the job then stayed "running" for good: never interrupted, never retried, and Cancel
refused it. The owner now also says when its process started, so a pid that another
process has since taken no longer counts as the owner."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.job_store import owner_alive, owner_token
from studio.worker import GenerationService, HostMode, JobStatus

from .fake_engine import FakeScript, fake_registry

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])


def test_a_dead_owners_pid_taken_by_another_process_does_not_keep_the_job(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, fake_registry(FakeScript()), default_engine="fake",
                                hosts=HostMode.IN_PROCESS)
    _, job_id = service.generate(project.tree.root_id, "x")
    sleeper = _sleeper()
    try:
        # what an owner that has died wrote, its pid since taken by the sleeper
        dead_owner = owner_token().replace(f":{os.getpid()}", f":{sleeper.pid}", 1)
        with project.database.transaction() as conn:
            conn.execute("UPDATE jobs SET status='running', owner=? WHERE id=?", (dead_owner, job_id))
        assert not owner_alive(dead_owner)
        other = GenerationService(project, fake_registry(FakeScript()), default_engine="fake",
                                  hosts=HostMode.IN_PROCESS)
        assert other.job(job_id).status is JobStatus.INTERRUPTED
    finally:
        sleeper.kill()
        sleeper.wait()
    project.close()


def test_the_owner_itself_is_alive_and_an_old_style_owner_still_counts() -> None:
    sleeper = _sleeper()
    try:
        host = socket.gethostname()
        assert owner_alive(f"{host}:{sleeper.pid}")  # written by an earlier version: pid alone
    finally:
        sleeper.kill()
        sleeper.wait()
    assert not owner_alive(f"{host}:{sleeper.pid}")
    assert not owner_alive(owner_token())  # this process: never "another live process"
