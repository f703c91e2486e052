"""The frozen app's entry point: ``kamishibai`` is the command line (no arguments: the
window), ``kamishibai-studio`` (a link to it, what the desktop entry runs) opens the
window, on the project given if any."""

from __future__ import annotations

import os
import sys

from studio.cli import gui_main, main

if __name__ == "__main__":
    name = os.path.basename(sys.argv[0])
    sys.exit(gui_main() if name.startswith("kamishibai-studio") else main())
