"""A project another process is changing: the command line's error gives its own advice
(`--wait SECONDS`, the reading commands), which the storage layer's hint no longer holds,
as the window shows that hint too and has no `--wait` (QA)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from studio.cli import LOCKED_ADVICE
from studio.storage import Project
from studio.storage.lock import ProjectLockedError


def test_a_held_project_is_refused_with_the_command_line_advice(tmp_path: Path) -> None:
    with Project.create(tmp_path / "held") as project:
        refused = subprocess.run([sys.executable, "-m", "studio", "play", str(project.path), "-i",
                                  "Character: Qiqi; Motion: run; Background: day town.", "--wait", "0"],
                                 capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2, refused.stderr
    assert "is being changed by" in refused.stderr, refused.stderr
    assert f"then try again. {LOCKED_ADVICE}" in refused.stderr, refused.stderr
    assert refused.stderr.count("--wait SECONDS") == 1


def test_a_second_open_in_this_process_gets_no_advice_to_wait(tmp_path: Path) -> None:
    from argparse import Namespace

    from studio.cli import _advise_the_command_line

    with Project.create(tmp_path / "twice") as project:
        try:
            Project.open(project.path)
        except ProjectLockedError as error:
            raised = error
    hint = raised.hint
    _advise_the_command_line(raised, Namespace(wait=0.0))
    assert raised.hint == hint, "waiting for this very process would never end"
