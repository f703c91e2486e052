"""Outside the window, a take out of date says why: its own instruction was edited, an earlier
turn changed, or the start state changed, in `tree`, `takes` (and `--json`, with the
instruction the take was made from) and `story` (and `--json`). A take whose own instruction
was edited read as if an earlier turn had changed ("(stale)", no reason at all)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from studio.core.commands import EditInstruction
from studio.storage import Project


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)


def _played(tmp_path: Path) -> tuple[Path, list[str]]:
    project = tmp_path / "s.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    played = kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park", "Qiqi sits", "Qiqi waves")
    assert played.returncode == 0, played.stderr
    with Project.open(project, read_only=True) as opened:
        return project, [node.id for node in opened.tree.descendants(opened.tree.root_id)]


def test_each_view_names_why_a_take_is_out_of_date(tmp_path: Path) -> None:
    project, (first, second, third) = _played(tmp_path)
    with Project.open(project) as opened:
        opened.apply(EditInstruction(second, "Qiqi sleeps"))

    tree = kamishibai("tree", str(project)).stdout
    assert "(stale" not in next(line for line in tree.splitlines() if first in line)
    assert "(stale: its instruction was edited)" in next(line for line in tree.splitlines() if second in line), tree
    assert "(stale: an earlier turn changed)" in next(line for line in tree.splitlines() if third in line), tree

    takes = kamishibai("takes", str(project), second).stdout
    assert "(chosen, out of date: its instruction was edited)" in takes, takes
    assert "made for: Qiqi sits" in takes, takes
    listed = json.loads(kamishibai("takes", str(project), second, "--json").stdout)
    (take,) = listed["takes"]
    assert take["stale_reasons"] == ["instruction edited"] and take["instruction"] == "Qiqi sits"
    (below,) = json.loads(kamishibai("takes", str(project), third, "--json").stdout)["takes"]
    assert below["stale_reasons"] == ["earlier turn changed"] and below["instruction"] == "Qiqi waves"

    story = kamishibai("story", str(project), second).stdout
    assert "is out of date: its instruction was edited" in story, story
    told = json.loads(kamishibai("story", str(project), third, "--json").stdout)
    assert told["chosen_take"]["stale"] and told["chosen_take"]["stale_reasons"] == ["earlier turn changed"]
    fresh = json.loads(kamishibai("story", str(project), first, "--json").stdout)
    assert fresh["chosen_take"]["stale_reasons"] == [] and not fresh["chosen_take"]["stale"]


def test_a_start_changed_is_named_as_the_reason_all_the_way_down(tmp_path: Path) -> None:
    project, turns = _played(tmp_path)
    assert kamishibai("start-state", str(project), "90", "10", "10").returncode == 0
    tree = kamishibai("tree", str(project)).stdout
    for turn in turns:
        line = next(line for line in tree.splitlines() if turn in line)
        assert "(stale: the start state changed" in line, tree
    (take,) = json.loads(kamishibai("takes", str(project), turns[-1], "--json").stdout)["takes"]
    assert take["stale_reasons"] == ["start state changed"]
