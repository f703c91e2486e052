"""Process-wide settings for the GUI process, applied before the first window."""

from __future__ import annotations

import gc
import os
import sys

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


def settle_heap() -> None:
    """Move everything alive now out of the cyclic collector's sight.

    A full collection walks every tracked object and stops all threads while it runs; with
    the window and an open story in memory that is a visible hitch (20 ms and more) in the
    middle of a batch. Objects made at start-up and when a project opens live as long as
    the window, so the collector gains nothing by walking them again. (Reference counting
    still frees them; only reference cycles among them are left alone.)
    """
    gc.freeze()
