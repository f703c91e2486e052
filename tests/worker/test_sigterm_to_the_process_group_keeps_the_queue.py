"""A SIGTERM sent to the whole process group (`timeout -s TERM`, systemd stopping a
service, a CI runner) during `run-queue`: the engine's own process got the signal too and
died, so the running job was failed ("exited with signal 15") and every job queued after it
was cancelled, where the README promises the same clean stop as Ctrl+C: the running job
interrupted, the rest left queued, exit status 143. The engine process now leaves SIGTERM to
the command, which ends it itself."""

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


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the engine process through /proc")
def test_sigterm_to_the_group_interrupts_the_running_job_and_keeps_the_rest_queued(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    story = tmp_path / "story.txt"
    story.write_text("Qiqi runs to the beach\nQiqi waves\nQiqi sits on a bench\nQiqi sleeps\n", encoding="utf-8")
    assert kamishibai("import-demo", str(story), "--project", str(project)).returncode == 0
    assert kamishibai("fill", str(project)).returncode == 0
    queued = json.loads(kamishibai("queue", str(project), "--json").stdout)
    assert [job["status"] for job in queued] == ["queued"] * 4, queued
    run = subprocess.Popen([sys.executable, "-m", "studio", "run-queue", str(project), "--engine-host", "process"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        engine = None
        deadline = time.monotonic() + 120
        while engine is None and run.poll() is None and time.monotonic() < deadline:
            engine = engine_process_of(run.pid)
            time.sleep(0.005)
        assert engine is not None, "the engine process was not seen"
        os.killpg(run.pid, signal.SIGTERM)  # as `timeout` and systemd do: the whole group
        _out, err = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()

    assert run.returncode == 143, err
    jobs = json.loads(kamishibai("queue", str(project), "--all", "--json").stdout)
    statuses = [job["status"] for job in jobs]
    assert "failed" not in statuses, (statuses, err)
    assert "cancelled" not in statuses, (statuses, err)
    # the job it was running is interrupted (run again with --requeue-interrupted); the
    # rest wait in the queue (blocked: each waits for the turn above it)
    assert len(statuses) == 4 and statuses.count("interrupted") == 1, statuses
    assert all(status in ("queued", "blocked", "done", "interrupted") for status in statuses), statuses
    assert "signal 15" not in err, err
