"""A project another process is changing, opened in the window: it opens read-only, and
what the window says about it (the read-only line, and the error when Reopen for editing
finds it still held) speaks of what the window can do, with no command-line options (QA: it
advised `--wait SECONDS` and the reading commands, which mean nothing there)."""

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

COMMAND_LINE_ADVICE = ("--wait", "Reading commands", "`kamishibai")


def test_a_project_held_elsewhere_opens_read_only_without_command_line_advice(  # type: ignore[no-untyped-def]
        make_window, tmp_path: Path) -> None:
    Project.create(tmp_path / "held").close()
    folder = tmp_path / "held.kamishibai"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        window = make_window()
        assert window.open_project(folder), window.last_error
        reason = window.session.read_only
        assert reason is not None and reason.locked
        line = window.workspace.read_only_bar.label.text()
        assert line.startswith("Read-only: held.kamishibai is being changed by"), line
        assert "Reopen for editing" in line, line
        assert not any(advice in line for advice in COMMAND_LINE_ADVICE), line

        assert not window.reopen_for_editing()  # still held: the error says so, for the window
        error = window.last_error
    finally:
        holder.communicate("", timeout=60)
    assert "is being changed by" in error.message, error
    assert error.hint.startswith("Wait for it to finish"), error.hint
    assert not any(advice in error.hint for advice in COMMAND_LINE_ADVICE), error.hint
    assert window.session.read_only is not None  # it stays open, read-only
