"""Ctrl+C during `kamishibai run-queue` (the whole foreground process group gets SIGINT, as
from a terminal) says what it finished, which job it interrupted and how many stay queued,
and names the command that goes on (QA: it said only "kamishibai: interrupted")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from stop_midway import stop_midway, takes_started  # tests/ is on sys.path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")

TURNS = 12


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)


def test_ctrl_c_during_run_queue_says_what_is_left_and_how_to_go_on(tmp_path: Path) -> None:
    demo = tmp_path / "long.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n" * TURNS, encoding="utf-8")
    project = tmp_path / "long.kamishibai"
    assert kamishibai("import-demo", str(demo), "--project", str(project)).returncode == 0
    assert kamishibai("fill", str(project)).returncode == 0
    code, _out, err = stop_midway(["run-queue", str(project), "--quiet"], takes_started(project))
    assert code == 130, err
    listed = json.loads(kamishibai("queue", str(project), "--json").stdout)
    interrupted = [job["id"] for job in listed if job["status"] == "interrupted"]
    queued = [job for job in listed if job["status"] in ("queued", "blocked")]
    assert queued, "the run was stopped before its end"
    assert f"{len(queued)} job(s) still queued" in err, err
    if interrupted:
        assert f"job(s) {interrupted[0]} interrupted (no take kept)" in err, err
        assert f"`kamishibai run-queue {project} --requeue-interrupted` goes on from there." in err, err
    else:
        assert f"`kamishibai run-queue {project}` goes on from there." in err, err
    assert err.rstrip().endswith("kamishibai: interrupted"), err
    assert "Traceback" not in err

    resumed = kamishibai("run-queue", str(project), "--quiet", *(["--requeue-interrupted"] if interrupted else []))
    assert resumed.returncode == 0, resumed.stderr
    tree = json.loads(kamishibai("tree", str(project), "--json").stdout)
    assert all(node["selected_take"] for node in tree["nodes"][1:]), "the command named generates every turn"
