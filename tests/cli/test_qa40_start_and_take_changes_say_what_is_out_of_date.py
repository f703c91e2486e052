"""A start state changed after turns were made from it puts their takes out of date (a take
drawn while Qiqi was exhausted kept its level and warning, not marked, nothing said), names
them with the re-roll that makes them again, and `tree` shows the start a character has of
their own. `use` counts only turns whose chosen take went out of date (a take kept beside the
chosen one changes nothing anyone sees)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return done


def _tree(project: Path) -> dict[str, object]:
    tree: dict[str, object] = json.loads(kamishibai("tree", str(project), "--json").stdout)
    return tree


def _stale(turn: dict[str, object]) -> bool:
    """Whether the turn's chosen take is out of date."""
    takes = {take["id"]: take for take in turn["takes"]}  # type: ignore[attr-defined]
    return bool(takes[turn["selected_take"]]["stale"])


def _turns(project: Path) -> list[dict[str, object]]:
    tree = _tree(project)
    return [node for node in tree["nodes"] if node["id"] != tree["root"]]  # type: ignore[attr-defined]


def test_a_changed_start_puts_the_takes_made_from_it_out_of_date(tmp_path: Path) -> None:
    project = tmp_path / "s2.kamishibai"
    kamishibai("new", str(project))
    kamishibai("start-state", str(project), "--character", "Qiqi", "5", "50", "50")
    kamishibai("play", str(project), "--seed", "1", "Qiqi runs in the park")
    (turn,) = _turns(project)
    assert not _stale(turn)
    changed = kamishibai("start-state", str(project), "--character", "Qiqi", "100", "50", "50")
    assert "1 turn(s) were made from the old start and are now out of date" in changed.stdout, changed.stdout
    assert f"kamishibai reroll {project} {turn['id']} --branch" in changed.stdout
    (turn,) = _turns(project)
    assert _stale(turn)
    start_row = kamishibai("tree", str(project)).stdout.splitlines()[0]
    assert "Qiqi st 100 so 50 fun 50" in start_row, start_row


def test_a_start_nobody_acts_from_changes_no_take(tmp_path: Path) -> None:
    project = tmp_path / "s3.kamishibai"
    kamishibai("new", str(project))
    kamishibai("play", str(project), "--seed", "1", "Qiqi runs in the park")
    changed = kamishibai("start-state", str(project), "--character", "Yuzu", "10", "50", "50")
    assert "out of date" not in changed.stdout
    assert not any(_stale(turn) for turn in _turns(project))


def test_use_counts_only_turns_whose_chosen_take_is_out_of_date(tmp_path: Path) -> None:
    project = tmp_path / "s1.kamishibai"
    kamishibai("new", str(project))
    kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park", "Qiqi jumps in the park",
               "Qiqi sits in the park")
    first = _turns(project)[0]["id"]
    kamishibai("reroll", str(project), str(first), "--branch", "--seed", "2")
    takes = [str(take["id"]) for take in _turns(project)[0]["takes"]]  # type: ignore[attr-defined]
    kamishibai("use", str(project), str(first), takes[0])  # whole ids: a number may also start an id
    back = kamishibai("use", str(project), str(first), takes[1])
    assert "out of date" not in back.stdout, back.stdout
