"""A take is out of date when its turn starts from another state than it was made from: set the
start back to what the takes were made from and they are current again (`start-state` made 32
turns out of date and setting the old values back left them so, `takes` then reading 'starts
now from 50, 50, 50 ... (chosen, out of date) made from: 50, 50, 50')."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from studio.storage import Project


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)


def _stale(project: Path) -> list[bool]:
    with Project.open(project, read_only=True) as opened:
        tree = opened.tree
        return [take.stale for node in tree.descendants(tree.root_id) for take in tree.takes_of(node.id)]


def test_setting_the_start_back_makes_the_takes_current_again(tmp_path: Path) -> None:
    project = tmp_path / "s.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    assert kamishibai("start-state", str(project), "50", "50", "50").returncode == 0
    played = kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park", "Qiqi sits", "Qiqi waves")
    assert played.returncode == 0, played.stderr
    assert _stale(project) == [False, False, False]

    assert kamishibai("start-state", str(project), "80", "50", "50").returncode == 0
    assert _stale(project) == [True, True, True]

    back = kamishibai("start-state", str(project), "50", "50", "50")
    assert back.returncode == 0, back.stderr
    assert _stale(project) == [False, False, False]
    shown = kamishibai("takes", str(project), "--json", _first_turn(project))
    (take,) = json.loads(shown.stdout)["takes"]
    assert not take["stale"] and not take["started_elsewhere"]


def _first_turn(project: Path) -> str:
    with Project.open(project, read_only=True) as opened:
        return opened.tree.child_ids(opened.tree.root_id)[0]
