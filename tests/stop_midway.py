"""Stop a `kamishibai` command with a signal while its engine is at work (the command line's
Ctrl+C and SIGTERM tests), and make sure a process a test stopped does not outlive it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def takes_started(project: Path, more_than: int = 0) -> Callable[[], bool]:
    """Whether more than ``more_than`` take folders are in ``project``: the engine is at work."""
    takes = project / "media" / "takes"
    return lambda: takes.is_dir() and len(list(takes.iterdir())) > more_than


def stop_midway(args: list[str], ready: Callable[[], bool], signum: int = signal.SIGINT, *,
                whole_group: bool = True, preexec_fn: Callable[[], None] | None = None,
                timeout: float = 120) -> tuple[int, str, str]:
    """Run `kamishibai ARGS`, send ``signum`` once ``ready()`` (to its process group, as a
    terminal's Ctrl+C does, or, ``whole_group`` False, to it alone, as `kill PID` does) and
    return (exit status, stdout, stderr). A command that ends before it is ready fails the test."""
    running = subprocess.Popen([sys.executable, "-m", "studio", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=preexec_fn)
    try:
        deadline = time.monotonic() + timeout
        while not ready():
            assert running.poll() is None and time.monotonic() < deadline, f"{args[0]} made no take"
            time.sleep(0.02)
        if whole_group:
            os.killpg(running.pid, signum)
        else:
            running.send_signal(signum)
        out, err = running.communicate(timeout=timeout)
    finally:
        if running.poll() is None:
            os.killpg(running.pid, signal.SIGKILL)
    return running.returncode, out, err


def interrupt_once_said(running: subprocess.Popen[bytes], words: bytes, timeout: float = 60) -> int:
    """Send SIGINT to the process group of ``running`` (started with ``start_new_session``
    and its stderr piped), as a terminal's Ctrl+C does, once its stderr has said ``words``;
    its exit status. A command that ends or stays silent first fails the test, and one still
    running when this returns is killed."""
    try:
        assert running.stderr is not None
        said = b""
        deadline = time.monotonic() + timeout
        while words not in said:
            assert time.monotonic() < deadline and running.poll() is None, said
            said += os.read(running.stderr.fileno(), 1024)
        os.killpg(running.pid, signal.SIGINT)
        return running.wait(timeout=timeout)
    finally:
        if running.poll() is None:
            os.killpg(running.pid, signal.SIGKILL)
            running.wait()


@contextmanager
def reaped(process: subprocess.Popen[Any]) -> Iterator[subprocess.Popen[Any]]:
    """``process`` for the block; killed if it still runs when the block ends (an assertion
    failed, or it was left paused) and always waited for, so that no test leaves it behind."""
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
