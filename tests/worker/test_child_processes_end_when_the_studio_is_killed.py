"""A studio process killed with SIGKILL (a crash, the out-of-memory killer) leaves no
process behind: its engine process, the process drawing the cast and place pictures and the
multiprocessing resource tracker all end within seconds (they were handed to PID 1 and
stayed, an engine's GPU memory with them)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.process_state import running

REPO = Path(__file__).resolve().parents[2]

GONE_WITHIN_S = 15.0

STUDIO = textwrap.dedent("""
    import json, multiprocessing.resource_tracker as tracker, sys
    from studio.composition import SketchPictures, default_registry
    from studio.engines.config import EngineConfig
    from studio.worker.engine_process import ProcessHost

    host = ProcessHost(default_registry(), EngineConfig())
    host.start()
    pictures = SketchPictures()
    assert pictures.place("park") is not None  # the drawing process runs and has answered
    drawing = [process.pid for process in pictures._pool._processes.values()]
    print(json.dumps({"engine": host.pid, "drawing": drawing, "tracker": tracker._resource_tracker._pid}),
          flush=True)
    sys.stdin.read()  # until killed
""")

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process states from /proc")


def _wait_gone(pids: list[int], timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    left = [pid for pid in pids if running(pid)]
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = [pid for pid in left if running(pid)]
    return left


def test_a_studio_killed_with_sigkill_leaves_no_process_behind() -> None:
    studio = subprocess.Popen([sys.executable, "-c", STUDIO], cwd=REPO, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    children: list[int] = []
    try:
        assert studio.stdout is not None
        line = studio.stdout.readline()
        assert line, studio.stderr.read() if studio.stderr else ""
        report = json.loads(line)
        children = [report["engine"], *report["drawing"], report["tracker"]]
        assert len(children) == 3 and all(isinstance(pid, int) for pid in children), report
        assert all(running(pid) for pid in children), report
        os.kill(studio.pid, signal.SIGKILL)
        studio.wait(10)
        left = _wait_gone(children, GONE_WITHIN_S)
        names = {report["engine"]: "the engine process", report["tracker"]: "the resource tracker",
                 **{pid: "the picture-drawing process" for pid in report["drawing"]}}
        assert left == [], f"still running {GONE_WITHIN_S:g} s after the studio was killed: " + ", ".join(
            f"{names[pid]} ({pid})" for pid in left)
    finally:
        if studio.poll() is None:
            studio.kill()
            studio.wait(10)
        for pid in children:  # only our own children, should the test fail
            if running(pid):
                os.kill(pid, signal.SIGKILL)

