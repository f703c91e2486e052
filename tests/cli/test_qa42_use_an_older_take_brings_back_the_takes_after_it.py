"""Choosing an older take again after a branch re-roll brings back the takes that followed it:
each later turn that still has a take made from the newly chosen one gets it back as its
chosen take, and `use` says so (after `reroll T --branch` and `use T 1`, every later turn was
out of date although each still had its old take made from take 1, current but not chosen)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from studio.storage import Project


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)


def _chosen(project: Path) -> list[tuple[str, bool]]:
    with Project.open(project, read_only=True) as opened:
        tree = opened.tree
        return [(take.id, take.stale) for node in tree.descendants(tree.root_id)
                if (take := tree.selected_take(node.id)) is not None]


def test_the_older_take_comes_back_with_the_takes_made_from_it(tmp_path: Path) -> None:
    project = tmp_path / "s.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    played = kamishibai("play", str(project), "--seed", "1", "Qiqi walks in the park", "Qiqi sits", "Qiqi waves")
    assert played.returncode == 0, played.stderr
    first = _chosen(project)
    with Project.open(project, read_only=True) as opened:
        top = opened.tree.child_ids(opened.tree.root_id)[0]

    rerolled = kamishibai("reroll", str(project), top, "--branch")
    assert rerolled.returncode == 0, rerolled.stderr
    assert [take for take, _ in _chosen(project)] != [take for take, _ in first]

    used = kamishibai("use", str(project), top, "1")
    assert used.returncode == 0, used.stderr
    assert _chosen(project) == first, "the takes made from take 1 are chosen again, current"
    assert "2 turn(s) after it use their takes made from this take again" in used.stdout, used.stdout
    assert "out of date" not in used.stdout
