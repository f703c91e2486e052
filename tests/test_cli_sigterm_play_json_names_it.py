"""`play --json` stopped by SIGTERM (a `timeout`, a `kill`, a CI runner) says in the stopped
turn's ``error`` that SIGTERM stopped it, as its exit status (143) does; Ctrl+C's says Ctrl+C
(130). QA: a SIGTERM's JSON said "Stopped by Ctrl+C", which nobody had pressed."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from stop_midway import stop_midway, takes_started  # tests/ is on sys.path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM and process groups are POSIX")

TURN = "Character: Qiqi; Motion: run; Background: day town."


@pytest.mark.parametrize(("signum", "code", "cause"), [(signal.SIGTERM, 143, "SIGTERM"),
                                                       (signal.SIGINT, 130, "Ctrl+C")], ids=["sigterm", "ctrl-c"])
def test_the_stopped_turn_names_what_stopped_it(tmp_path: Path, signum: int, code: int, cause: str) -> None:
    project = tmp_path / "story.kamishibai"
    made = subprocess.run([sys.executable, "-m", "studio", "new", str(project)], capture_output=True, timeout=300)
    assert made.returncode == 0, made.stderr
    status, out, err = stop_midway(["play", str(project), "-i", TURN, "--json", "--setting", "frames=80"],
                                   takes_started(project), signum, whole_group=signum == signal.SIGINT)
    assert status == code, err
    result = json.loads(out)
    assert result["interrupted"] is True and result["kept"] is False, out
    assert result["error"] == f"Stopped by {cause} before its clip was made.", out
