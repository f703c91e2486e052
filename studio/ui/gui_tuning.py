"""Process-wide settings for the GUI process, applied before the first window."""

from __future__ import annotations

import sys

GUI_SWITCH_INTERVAL_S = 0.001
"""How long another thread may hold the GIL before the GUI thread gets it (default 5 ms).

Every paint of a Python-drawn item re-enters Python and must take the GIL back from the
worker thread; with the default interval a frame of 20 cards could wait 100 ms."""


def tune_for_gui() -> None:
    sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
