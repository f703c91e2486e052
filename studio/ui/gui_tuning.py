"""Process-wide settings for the GUI process, applied before the first window."""

from __future__ import annotations

import gc
import os
import sys
import threading

GUI_SWITCH_INTERVAL_S = 0.001
"""How long another thread may hold the GIL before the GUI thread gets it (default 5 ms).

Every paint of a Python-drawn item re-enters Python and must take the GIL back from the
worker thread; with the default interval a frame of 20 cards could wait 100 ms."""


ENGINE_NICE = 10
"""How much nicer (lower CPU priority) the engine processes the window starts run.

Generating keeps every core busy (the engine, its ffmpeg encoders); at equal priority
the window's thread waits its turn behind them and a frame can take 30 ms and more."""


def tune_for_gui() -> None:
    sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
    # Read by the engine processes (studio.worker.thread_budget): the name is spelled out
    # here so that the window doesn't import the worker package to start.
    os.environ.setdefault("KAMISHIBAI_ENGINE_NICE", str(ENGINE_NICE))


BACKGROUND_NICE = ENGINE_NICE
"""How much nicer the window's own background threads (decoding posters and clips) run."""

_lowered = threading.local()


def lower_this_thread() -> bool:
    """Make the calling thread background work, once: nicer by :data:`BACKGROUND_NICE`.

    For the window's decoding threads (posters, clips, and the ffmpeg processes they start,
    which inherit it). Without it, on two cores, that work and a generating engine take
    both cores and the GUI thread, woken by its timer, waits in the run queue behind
    threads of its own priority for 10 ms and more. Unlike the engine processes these
    threads stay in the normal scheduling class: they share the GIL with the GUI thread,
    and one that holds it must get a core at once when the GUI thread waits for it (an
    idle-class thread would queue behind the engine). On Linux a thread's nice value is its
    own (the GUI thread keeps its); elsewhere nothing changes. Returns whether the priority
    was lowered now."""
    if getattr(_lowered, "done", False) or not sys.platform.startswith("linux"):
        return False
    _lowered.done = True
    me = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, me, max(os.getpriority(os.PRIO_PROCESS, me), BACKGROUND_NICE))
    except OSError:
        return False
    return True


def settle_heap() -> None:
    """Move everything alive now out of the cyclic collector's sight.

    A full collection walks every tracked object and stops all threads while it runs; with
    the window and an open story in memory that is a visible hitch (20 ms and more) in the
    middle of a batch. Objects made at start-up and when a project opens live as long as
    the window, so the collector gains nothing by walking them again. (Reference counting
    still frees them; only reference cycles among them are left alone.)
    """
    gc.freeze()
