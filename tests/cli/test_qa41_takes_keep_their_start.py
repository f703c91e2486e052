"""A take keeps the state it was made from (schema 6), and `takes`, `tree` and `tree --json`
show it beside where the turn starts now: after `start-state` or a change above a turn, the
start an out-of-date take was drawn from can be read. A project of schema 5 still opens: read
as it is (its takes say their start was not recorded), upgraded when opened for writing, with
a backup of the old file."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from older_schemas import assert_upgraded, rewound_to_schema  # tests/ is on sys.path

from studio.storage import Project


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)
    return done


def _turns(project: Path) -> list[str]:
    with Project.open(project, read_only=True) as opened:
        tree = opened.tree
        return [node.id for node in tree.descendants(tree.root_id)]


def _takes(project: Path, turn: str) -> dict[str, Any]:
    shown = kamishibai("takes", str(project), turn, "--json")
    assert shown.returncode == 0, shown.stderr
    listed: dict[str, Any] = json.loads(shown.stdout)
    return listed


def _stats(stamina: int, character: str = "Qiqi") -> dict[str, Any]:
    return {"character": character, "stamina": stamina, "social": 50, "entertainment": 50}


def test_a_take_keeps_the_start_it_was_made_from(tmp_path: Path) -> None:
    project = tmp_path / "s.kamishibai"
    kamishibai("new", str(project))
    assert kamishibai("start-state", str(project), "--character", "Qiqi", "--new", "20", "50", "50").returncode == 0
    assert kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park", "Qiqi sits").returncode == 0
    first, second = _turns(project)
    (take,) = _takes(project, first)["takes"]
    assert take["start_state"] == _stats(20) and not take["stale"] and not take["started_elsewhere"]
    listed = _takes(project, second)
    (below,) = listed["takes"]
    assert below["start_state"] == {"character": "Qiqi", **listed["start"]}, "made from where the first turn led"

    changed = kamishibai("start-state", str(project), "--character", "Qiqi", "90", "50", "50")
    assert changed.returncode == 0, changed.stderr
    listed = _takes(project, first)
    (take,) = listed["takes"]
    assert listed["start"] == {"stamina": 90, "social": 50, "entertainment": 50}
    assert take["start_state"] == _stats(20), "the take keeps the start it was drawn from"
    assert take["stale"] and take["started_elsewhere"]
    text = kamishibai("takes", str(project), first).stdout
    assert "starts now from Qiqi's stamina 90, social 50, fun 50" in text, text
    assert "made from: Qiqi's stamina 20, social 50, fun 50  (the turn starts elsewhere now)" in text
    tree = kamishibai("tree", str(project)).stdout
    assert f"{first}  Qiqi walks in the park  [st" in tree, tree
    assert "(stale: the start state changed; made from st 20 so 50 fun 50)" in tree, tree
    nodes = {node["id"]: node for node in json.loads(kamishibai("tree", str(project), "--json").stdout)["nodes"]}
    assert nodes[first]["takes"][0]["start_state"] == _stats(20)
    assert nodes[first]["start"] == {"stamina": 90, "social": 50, "entertainment": 50}

    rerolled = kamishibai("reroll", str(project), first, "--seed", "2", "--json")
    assert rerolled.returncode == 0, rerolled.stderr
    assert [turn["start_state"] for turn in json.loads(rerolled.stdout)] == [_stats(90)]
    old, new = _takes(project, first)["takes"]
    assert old["start_state"] == _stats(20) and new["start_state"] == _stats(90) and not new["started_elsewhere"]


def test_a_branch_scope_take_starts_from_the_branchs_state(tmp_path: Path) -> None:
    project = tmp_path / "b.kamishibai"
    kamishibai("new", str(project))
    assert kamishibai("state-scope", str(project), "branch").returncode == 0
    assert kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park").returncode == 0
    (take,) = _takes(project, _turns(project)[0])["takes"]
    assert take["start_state"] == _stats(50, character="")


def test_unknown_ids_and_the_start_are_refused(tmp_path: Path) -> None:
    project = tmp_path / "u.kamishibai"
    kamishibai("new", str(project))
    unknown = kamishibai("takes", str(project), "zz99")
    assert unknown.returncode == 2 and "No node 'zz99' in this project." in unknown.stderr
    start = kamishibai("takes", str(project), "start")
    assert start.returncode == 2 and "The story's start has no takes" in start.stderr


def _as_schema_5(project: Path) -> None:
    """The project's database as the studio of schema 5 wrote it (takes had no start_state)."""
    with rewound_to_schema(project, 5) as conn:
        conn.execute("ALTER TABLE takes DROP COLUMN start_state")


def _digest(project: Path) -> str:
    return hashlib.sha256((project / "project.db").read_bytes()).hexdigest()


def test_a_schema_5_project_opens_then_upgrades_with_a_backup(tmp_path: Path) -> None:
    project = tmp_path / "old.kamishibai"
    kamishibai("new", str(project))
    assert kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park").returncode == 0
    (turn,) = _turns(project)
    _as_schema_5(project)
    before = _digest(project)

    (take,) = _takes(project, turn)["takes"]  # read as it is
    assert take["start_state"] is None and not take["started_elsewhere"]
    assert "made from: not recorded (made before the studio kept it)" in kamishibai("takes", str(project), turn).stdout
    tree = json.loads(kamishibai("tree", str(project), "--json").stdout)
    assert [t["start_state"] for node in tree["nodes"] for t in node["takes"]] == [None]
    assert _digest(project) == before and not list(project.glob("project.db.bak-*")), "reading changed nothing"

    assert kamishibai("note", str(project), turn, "upgraded").returncode == 0  # opened for writing
    assert (project / "project.db.bak-v5").is_file()
    assert_upgraded(project)
    assert kamishibai("reroll", str(project), turn, "--seed", "3").returncode == 0
    old, new = _takes(project, turn)["takes"]
    assert old["start_state"] is None and new["start_state"] == _stats(50)
