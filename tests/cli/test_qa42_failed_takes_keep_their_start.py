"""A take whose generation failed was recorded without the state it started from: `takes`
said "made from: not recorded (made before the studio kept it)" for a take made a minute ago,
while the finished takes beside it said where they started. A failed take now keeps its start
as a finished one does, and `takes` and `tree --json` show it the same way. The real command
is run; a generation is made to fail by putting a file where the project's take folders go."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from user_limits import block_the_take_folders  # tests/ is on sys.path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)


def _takes(project: Path, turn: str) -> dict[str, Any]:
    shown = kamishibai("takes", str(project), turn, "--json")
    assert shown.returncode == 0, shown.stderr
    listed: dict[str, Any] = json.loads(shown.stdout)
    return listed


def test_a_failed_take_keeps_the_start_it_was_tried_from(tmp_path: Path) -> None:
    project = tmp_path / "s.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    assert kamishibai("start-state", str(project), "--character", "Qiqi", "--new", "20", "60", "70").returncode == 0
    made = kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park", "--json")
    assert made.returncode == 0, made.stderr
    turn = json.loads(made.stdout)["node"]
    block_the_take_folders(project)
    failed = kamishibai("reroll", str(project), turn, "--seed", "2", "--json")
    assert failed.returncode == 1, failed.stderr
    assert [shown["job_status"] for shown in json.loads(failed.stdout)] == ["failed"]

    listed = _takes(project, turn)
    done, broken = listed["takes"]
    assert (done["status"], broken["status"]) == ("done", "failed")
    started = {"character": "Qiqi", "stamina": 20, "social": 60, "entertainment": 70}
    assert done["start_state"] == started
    assert broken["start_state"] == started, "the failed take says where it started, as the finished one does"
    assert not broken["started_elsewhere"]

    text = kamishibai("takes", str(project), turn).stdout
    assert "not recorded" not in text, text
    assert text.count("made from: Qiqi's stamina 20, social 60, fun 70") == 2, text
    nodes = {node["id"]: node for node in json.loads(kamishibai("tree", str(project), "--json").stdout)["nodes"]}
    assert [take["start_state"] for take in nodes[turn]["takes"]] == [started, started]

    moved = kamishibai("start-state", str(project), "--character", "Qiqi", "90", "60", "70")
    assert moved.returncode == 0, moved.stderr
    _done, broken = _takes(project, turn)["takes"]
    assert broken["start_state"] == started and broken["started_elsewhere"]

