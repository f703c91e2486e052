"""A `play` killed midway (kill -9, a closed terminal) leaves its turn without a take and its
job interrupted. The next `play` goes on from that turn (the most recent one) and starts from
the state before it, but said nothing: the note "has no finished take" was kept back as if
the interrupted job were still to run first, which it is not until queued again."""

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


def engine_started(pid: int) -> bool:
    """Whether the command ``pid`` has started its engine process: its job is running."""
    return engine_process_of(pid) is not None


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the engine process through /proc")
def test_the_next_play_says_the_turn_it_continues_has_no_take(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    play = subprocess.Popen([sys.executable, "-m", "studio", "play", str(project), "Qiqi runs to the beach",
                             "--engine-host", "process"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while play.poll() is None and not engine_started(play.pid) and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(play.pid, signal.SIGKILL)
    play.wait()
    queue = json.loads(kamishibai("queue", str(project), "--json").stdout)
    assert [job["status"] for job in queue] == ["interrupted"], queue

    went_on = kamishibai("play", str(project), "Qiqi waves", "--json")
    assert went_on.returncode == 0, went_on.stderr
    turn = next(node for node in json.loads(kamishibai("tree", str(project), "--json").stdout)["nodes"]
                if node.get("instruction") == "Qiqi runs to the beach")
    assert f"the turn continued, {turn['id']} ('Qiqi runs to the beach'), has no finished take" in went_on.stderr, \
        went_on.stderr
    assert f"run-queue {project} --requeue-interrupted" in went_on.stderr, went_on.stderr  # the project as given
