"""packaging/entry.py, the one-folder app's entry point, hands the process to multiprocessing
before the command line reads its arguments.

A frozen app is also each process that multiprocessing starts (the engine hosts, started by
"spawn", and the resource tracker): they run the same executable with multiprocessing's own
arguments. Without ``multiprocessing.freeze_support()`` those arguments reached the command
line ("invalid choice: 'tracker_fd=11'"), and in the built app every ``play`` failed with "The
engine process exited with code 2 during start-up". PyInstaller's runtime hook makes
``freeze_support()`` run such a process and exit; here a stand-in records that it was called
first.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.installation.conftest import PACKAGING

DRIVER = r'''
import multiprocessing, runpy, sys

def taken_by_multiprocessing():
    print("multiprocessing took the process")
    sys.exit(7)

multiprocessing.freeze_support = taken_by_multiprocessing
sys.argv = [sys.argv[1], "-B", "-s", "-c", "from multiprocessing.resource_tracker import main;main(9)"]
runpy.run_path(sys.argv[0], run_name="__main__")
'''


def _run_entry(tmp_path: Path, entry: Path) -> subprocess.CompletedProcess[str]:
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, str(driver), str(entry)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_process_started_by_multiprocessing_never_reaches_the_command_line(tmp_path: Path) -> None:
    done = _run_entry(tmp_path, PACKAGING / "entry.py")
    assert (done.returncode, done.stdout.strip()) == (7, "multiprocessing took the process"), done.stderr
    assert "invalid choice" not in done.stderr
