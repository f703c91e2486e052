"""The frozen app's entry point: ``kamishibai`` is the command line (no arguments: the
window), ``kamishibai-studio`` (a link to it, what the desktop entry runs) opens the
window, on the project given if any."""

from __future__ import annotations

import multiprocessing
import os
import sys

from studio.cli import gui_main, main

if __name__ == "__main__":
    # The frozen executable is also every process that multiprocessing starts: the engine
    # hosts (started by "spawn") and its resource tracker. freeze_support() runs those and
    # exits; without it their arguments reached the command line ("invalid choice:
    # 'tracker_fd=11'") and every turn failed with "The engine process exited with code 2".
    multiprocessing.freeze_support()
    name = os.path.basename(sys.argv[0])
    sys.exit(gui_main() if name.startswith("kamishibai-studio") else main())
