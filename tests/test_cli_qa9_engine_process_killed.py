"""`kill -9` of the engine's own process during a `play`: the command printed a bare stderr
line ("The engine process exited with signal 9 (SIGKILL) during loading. (device cpu)", a
logged warning without the "kamishibai:" prefix), then an error whose hint said "Retry the
job" (the window's words) and exit status 2, as for a command used wrongly. It now says what
happened, that nothing was lost and the command that tries again, once, in the usual form,
with exit status 1; that command, run as given, makes the turns."""

from __future__ import annotations

import json
import os
import shlex
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
def test_a_killed_engine_process_is_said_once_with_what_to_do(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    command = [sys.executable, "-m", "studio", "play", str(project), "Qiqi runs to the beach", "Qiqi waves",
               "--engine-host", "process"]
    play = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        engine = None
        deadline = time.monotonic() + 120
        while engine is None and play.poll() is None and time.monotonic() < deadline:
            engine = engine_process_of(play.pid)
            time.sleep(0.005)
        assert engine is not None, "the engine process was not seen"
        os.kill(engine, signal.SIGKILL)
        out, err = play.communicate(timeout=120)
    finally:
        if play.poll() is None:
            play.kill()
            play.wait()

    assert play.returncode == 1, err
    assert "turn not kept (failed)" in out, out
    lines = [line for line in err.splitlines() if line.strip()]
    assert all(line.startswith(("kamishibai: ", "  hint: ")) for line in lines), err
    assert err.count("exited with signal 9 (SIGKILL)") == 1, err
    assert "Retry the job" not in err
    assert "Nothing was lost: the project is as it was before this turn." in err, err
    again = err.split("Run `", 1)[1].split("`", 1)[0]
    assert shlex.split(again)[:2] == ["kamishibai", "play"], err

    assert json.loads(kamishibai("tree", str(project), "--json").stdout)["nodes"][1:] == []  # no turn kept
    done = kamishibai(*shlex.split(again)[1:], "--json")
    assert done.returncode == 0, done.stderr
    assert [turn["instruction"] for turn in json.loads(done.stdout)] == ["Qiqi runs to the beach", "Qiqi waves"]
