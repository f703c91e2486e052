"""Ctrl+C during `kamishibai reroll --branch` reports the takes it made, as `play` does: with
--json, the list of every turn it was to re-roll (each with its job_status), and on stderr
how many were re-rolled and the command that goes on (QA: it printed nothing on stdout, so a
script lost the takes it had made, and said only "kamishibai: interrupted")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from stop_midway import stop_midway, takes_started  # tests/ is on sys.path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")

TURNS = 10


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)


def test_ctrl_c_during_reroll_branch_lists_what_it_made(tmp_path: Path) -> None:
    demo = tmp_path / "long.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n" * TURNS, encoding="utf-8")
    project = tmp_path / "long.kamishibai"
    assert kamishibai("import-demo", str(demo), "--project", str(project), "--generate").returncode == 0
    tree = json.loads(kamishibai("tree", str(project), "--json").stdout)
    first = next(node["id"] for node in tree["nodes"] if node["depth"] == 1)
    takes = project / "media" / "takes"
    before = len(list(takes.iterdir()))
    code, out, err = stop_midway(["reroll", str(project), first, "--branch", "--json", "--setting", "frames=60"],
                                 takes_started(project, before + 1))
    assert code == 130, err
    results = json.loads(out)
    assert len(results) == TURNS
    made = [result for result in results if result["job_status"] == "done"]
    left = [result for result in results if result["job_status"] != "done"]
    assert made and left, "the re-roll was stopped midway"
    assert all(result["kept"] for result in results)
    assert all(Path(result["clip"]).is_file() for result in made)
    stopped = [result for result in left if result.get("interrupted")]
    assert len(stopped) == 1 and stopped[0] is left[0], left  # the one running, not those waiting after it
    assert stopped[0]["error"] == "Stopped by Ctrl+C before its clip was made.", stopped[0]
    assert f"stopped: {len(made)} of {TURNS} turn(s) re-rolled" in err, err
    go_on = f"kamishibai reroll {project} {left[0]['node']}" + (" --branch" if len(left) > 1 else "")
    assert f"`{go_on}` goes on from there." in err, err
    assert err.rstrip().endswith("kamishibai: interrupted"), err
    assert "Traceback" not in err
