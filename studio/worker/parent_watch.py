"""A child process of the studio that ends itself when the studio dies.

The studio starts helper processes with ``multiprocessing`` (spawn): the engine process of
each device, the process that draws the cast and place pictures. When the studio is killed
(SIGKILL, the kernel's out-of-memory killer, a crash in a native library) nothing closes
them: the kernel hands them to PID 1, where they go on holding their memory (an engine's
GPU memory, which the next session needs) and keep the multiprocessing resource tracker
alive with them. A child that waits for work on a pipe whose write end it holds itself (a
process pool's call queue) never even sees the studio go.

:func:`end_with_parent` starts a daemon thread that watches the parent and ends the process
with :data:`PARENT_GONE_EXIT_CODE` once it is gone. It waits on the parent's sentinel (the
end of the start-up pipe only the parent held, readable once the parent is gone: this works
on every platform multiprocessing runs on), and every :data:`CHECK_S` seconds it also looks
whether the process was handed to another parent (``os.getppid()`` changed): the sentinel
stays quiet if a process the parent forked still holds the pipe's other end.

Not ``PR_SET_PDEATHSIG``: Linux sends that signal when the *thread* that started the child
ends, and the studio starts its children from worker threads that come and go.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading

PARENT_GONE_EXIT_CODE = 70
"""How a child process exits when its parent died under it."""

CHECK_S = 1.0
"""How often the watch also compares the process's parent id with the one it started with."""

THREAD_NAME = "kamishibai-parent-watch"


def parent_is_gone(parent_pid: int) -> bool:
    """Whether this process's parent is no longer ``parent_pid`` (it died and the process was
    handed to PID 1 or a subreaper). Always False where processes have no parent id."""
    getppid = getattr(os, "getppid", None)
    return getppid is not None and getppid() != parent_pid


def end_with_parent(exit_code: int = PARENT_GONE_EXIT_CODE) -> bool:
    """End this process (``os._exit``, whatever its other threads are doing: what it holds
    goes with it) as soon as the process that started it is gone.

    Call it first thing in a multiprocessing child (a process target, a pool's initializer).
    Returns whether a watch was started: none in a process multiprocessing did not start,
    and at most one per process."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.pid is None:
        return False
    if any(thread.name == THREAD_NAME for thread in threading.enumerate()):
        return False
    parent_pid = parent.pid
    sentinel = parent.sentinel

    def watch() -> None:
        while True:
            try:
                gone = bool(multiprocessing.connection.wait([sentinel], timeout=CHECK_S))
            except (OSError, ValueError):  # the sentinel was closed under us: fall back on the parent id
                gone = False
                threading.Event().wait(CHECK_S)
            if gone or parent_is_gone(parent_pid):
                os._exit(exit_code)

    threading.Thread(target=watch, name=THREAD_NAME, daemon=True).start()
    return True
