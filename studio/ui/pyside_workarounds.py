"""Workarounds for bugs in the Qt binding we ship with.

PySide6 6.12 on CPython 3.11: every call of ``QCoreApplication.processEvents()`` (and so
of ``QTest.qWait``, which pytest-qt's ``waitUntil`` uses) releases one reference to
``None`` that it never took. After a few thousand calls CPython aborts with
"none_dealloc: deallocating None". The studio's own event loop (qasync, ``exec()``) does
not call it, but tests, benchmarks and any plugin might. From Python 3.12 on ``None`` is
immortal; on 3.11 we give it a refcount so large that it can never reach zero.
"""

from __future__ import annotations

import ctypes
import sys

_PINNED = False
GUI_SWITCH_INTERVAL_S = 0.001
"""How long another thread may hold the GIL before the GUI thread gets it (default 5 ms).

Every paint of a Python-drawn item re-enters Python and must take the GIL back from the
worker thread; with the default interval a frame of 20 cards could wait 100 ms."""


def pin_none() -> None:
    """Make ``None`` practically immortal on CPython < 3.12 (idempotent)."""
    global _PINNED
    if _PINNED or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    for singleton in (None, True, False):  # bool-returning calls show the same leak at exit
        ctypes.c_ssize_t.from_address(id(singleton)).value += 1 << 40
    _PINNED = True


def tune_for_gui() -> None:
    """Everything the GUI process sets up before the first window: see above."""
    pin_none()
    sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
