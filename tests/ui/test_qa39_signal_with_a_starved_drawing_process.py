"""A signal closes the studio window within seconds even when the process that draws the
cast's pictures gets no time at all.

QA: on a loaded two-core machine, `kamishibai open NEW_PROJECT` stopped by SIGINT said
"interrupted" and was still alive a minute later. Python's exit waited, with no time limit,
for the picture-drawing process to draw every picture asked for and then to end; that process
runs in the idle scheduling class, and with the cores kept busy by other work it got almost
none of their time (it was still importing the drawing engine). Here the drawing process is
stopped outright (SIGSTOP): the extreme of a process that gets no time. The window's process
ends it as it exits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads child processes from /proc")

KAMISHIBAI = Path(sys.executable).with_name("kamishibai")
UP_SECONDS = 120.0
"""How long the window may take to open on a busy machine."""
END_SECONDS = 30.0
"""How long the window's process may take to end after the signal (it needs a few seconds)."""


def _spawned(pid: int) -> list[int]:
    """The child processes of ``pid`` that multiprocessing spawned."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
        for child in children:
            try:
                if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.append(child)
            except OSError:
                continue
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _stopped_drawing_then(number: signal.Signals, tmp_path: Path) -> tuple[int | None, str, float, list[int], Path]:
    """Open a new project, stop its drawing process once it runs, send ``number``; the exit
    status (None: still running after :data:`END_SECONDS`), stderr, seconds taken to end, the
    stopped processes and the project."""
    path = tmp_path / "somewhere" / "new-project"
    project = path.with_name("new-project.kamishibai")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("KAMISHIBAI_QUIT_AFTER_MS", None)
    process = subprocess.Popen([str(KAMISHIBAI), "open", str(path)], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    stopped: list[int] = []
    try:
        deadline = time.monotonic() + UP_SECONDS
        lock = project / "writer.lock"
        while time.monotonic() < deadline and process.poll() is None:
            stopped = _spawned(process.pid)
            if stopped and lock.is_file() and lock.stat().st_size > 0:
                break
            time.sleep(0.1)
        assert process.poll() is None, process.communicate()
        assert stopped, f"the window did not open {project} with its drawing process in {UP_SECONDS:.0f} s"
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)
        sent = time.monotonic()
        process.send_signal(number)
        try:
            _, err = process.communicate(timeout=END_SECONDS)
            return process.returncode, err, time.monotonic() - sent, stopped, project
        except subprocess.TimeoutExpired:
            return None, "", END_SECONDS, stopped, project
    finally:
        for pid in [process.pid, *stopped]:  # leave nothing of the test behind
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if process.poll() is None or process.returncode is None:
            process.communicate()


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_the_window_ends_though_its_drawing_process_gets_no_time(tmp_path: Path, number: signal.Signals) -> None:
    assert KAMISHIBAI.is_file(), KAMISHIBAI
    code, err, seconds, stopped, project = _stopped_drawing_then(number, tmp_path)
    assert code is not None, f"the window was still running {END_SECONDS:.0f} s after {number.name}"
    assert code == 128 + number, (code, err)
    assert seconds < 15, f"it took {seconds:.1f} s to end"
    assert "Traceback" not in err and "leaked semaphore" not in err and "resource_tracker" not in err, err
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in stopped) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in stopped), "the drawing process outlived the window"
    lock = project / "writer.lock"
    assert not lock.is_file() or lock.stat().st_size == 0, "the project's lock was not released"
    from studio.storage import Project

    with Project.open(project) as reopened:  # for writing: nobody holds it
        assert reopened.tree.cast
