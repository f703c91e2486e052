"""A project another process is changing, opened in the window: the error's hint says
what the window can do, with no command-line options (QA: it advised `--wait SECONDS` and
the reading commands, which mean nothing there)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from studio.storage import Project

HOLD = """
import sys
from studio.storage import Project
with Project.open(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_a_project_held_elsewhere_is_refused_without_command_line_advice(  # type: ignore[no-untyped-def]
        make_window, tmp_path: Path) -> None:
    Project.create(tmp_path / "held").close()
    folder = tmp_path / "held.kamishibai"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        window = make_window()
        assert not window.open_project(folder)
    finally:
        holder.communicate("", timeout=60)
    error = window.last_error
    assert "is being changed by" in error.message, error
    assert error.hint.startswith("Wait for it to finish"), error.hint
    assert "--wait" not in error.hint and "Reading commands" not in error.hint, error.hint
