"""SIGTERM and SIGINT close the studio window the way its close button does.

QA: `timeout 20 kamishibai open /tmp/somewhere/new-project` ended with Python's
"resource_tracker: There appear to be 5 leaked semaphore objects to clean up at shutdown":
SIGTERM's default action killed the window's process on the spot, so the queues of its
child process (the one that draws the cast's pictures) were never released, and the
project's lock and journal files were left as a crash leaves them.

Now the window closes (queued jobs kept), its child processes end, and the process exits
with 143 (128 + SIGTERM), as shells report a program a signal stopped: a script can tell
it from a window the user closed (0)."""

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


def _env() -> dict[str, str]:
    env = dict(os.environ)  # the private XDG folders of tests/ui/conftest.py
    env["QT_QPA_PLATFORM"] = "offscreen"
    env.pop("KAMISHIBAI_QUIT_AFTER_MS", None)
    return env


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _spawned(pid: int) -> list[int]:
    """The child processes of ``pid`` that multiprocessing started (their queues hold semaphores)."""
    spawned = []
    for child in _children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                spawned.append(child)
        except OSError:
            continue
    return spawned


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _wait_until_up(process: subprocess.Popen[str], project: Path) -> list[int]:
    """Wait until the window holds ``project`` and has started a process of multiprocessing."""
    deadline = time.monotonic() + UP_SECONDS
    lock = project / "writer.lock"
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        spawned = _spawned(process.pid)
        if lock.is_file() and lock.stat().st_size > 0 and spawned:
            return spawned
        time.sleep(0.2)
    process.kill()
    pytest.fail(f"the window did not open {project} in {UP_SECONDS:.0f} s: {process.communicate()}")


def _left_behind(project: Path) -> dict[str, int]:
    """The project's own files (not its media) and their sizes: what a close leaves."""
    return {item.name: item.stat().st_size for item in project.iterdir()
            if item.is_file() and item.name != "project.db"}


def _quit_after(path: Path, ms: int = 1500) -> subprocess.CompletedProcess[str]:
    env = {**_env(), "KAMISHIBAI_QUIT_AFTER_MS": str(ms)}
    return subprocess.run([str(KAMISHIBAI), "open", str(path)], env=env, capture_output=True, text=True,
                          timeout=UP_SECONDS)


def _stop_with(number: signal.Signals, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    path = tmp_path / "somewhere" / "new-project"
    project = path.with_name("new-project.kamishibai")
    process = subprocess.Popen([str(KAMISHIBAI), "open", str(path)], env=_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    spawned: list[int] = []
    try:
        spawned = _wait_until_up(process, project)
        process.send_signal(number)
        try:
            out, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the window did not end within 60 s of {number.name} (or a child process it left "
                        f"behind holds its output open): {_alive(process.pid)=}, "
                        f"{[pid for pid in spawned if _alive(pid)]=}")
    finally:
        if process.poll() is None or any(_alive(pid) for pid in spawned):  # leave no process of the test behind
            for pid in [process.pid, *spawned]:
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)
            process.communicate()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in spawned) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in spawned), "the window's child processes outlived it"
    return subprocess.CompletedProcess(process.args, process.returncode, out, err), project


@pytest.mark.parametrize(("number", "said"), [(signal.SIGTERM, "kamishibai: terminated (SIGTERM)"),
                                              (signal.SIGINT, "kamishibai: interrupted")])
def test_a_signal_closes_the_window_as_closing_it_does(tmp_path: Path, number: signal.Signals, said: str) -> None:
    assert KAMISHIBAI.is_file(), KAMISHIBAI
    stopped, project = _stop_with(number, tmp_path)
    assert stopped.returncode == 128 + number, (stopped.returncode, stopped.stderr)
    assert "leaked semaphore" not in stopped.stderr and "resource_tracker" not in stopped.stderr, stopped.stderr
    assert "Traceback" not in stopped.stderr, stopped.stderr
    assert said in stopped.stderr, stopped.stderr

    # the project is left as a window closed by hand leaves one (the lock released, no journal)
    closed = tmp_path / "closed" / "by-hand"
    by_hand = _quit_after(closed)
    assert by_hand.returncode == 0, by_hand.stderr
    assert _left_behind(project) == _left_behind(closed.with_name("by-hand.kamishibai"))

    again = _quit_after(project)  # it opens again, with nothing to say about a crash
    assert again.returncode == 0, again.stderr
    assert "Traceback" not in again.stderr and "leaked" not in again.stderr, again.stderr
    from studio.storage import Project

    with Project.open(project, read_only=True) as opened:
        assert opened.tree.root is not None and opened.tree.cast
