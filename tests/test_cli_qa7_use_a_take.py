"""`kamishibai use PATH NODE TAKE` chooses one of a turn's takes, as "Use this take" does in the
window: the command line could make a new take of a turn with later turns (kept beside the
chosen one) but never switch to it."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


def _tree(path: Path) -> dict[str, dict[str, object]]:
    nodes = json.loads(kamishibai("tree", str(path), "--json").stdout)["nodes"]
    return {str(node["id"]): node for node in nodes}


def test_use_chooses_a_take_by_id_prefix_or_number_and_marks_later_turns_out_of_date(tmp_path: Path) -> None:
    path = tmp_path / "trip.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    played = json.loads(kamishibai("play", str(path), "Qiqi runs", "Qiqi waves", "--json").stdout)
    first, second = (str(turn["node"]) for turn in played)
    old_take = str(played[0]["take"])
    rerolled = kamishibai("reroll", str(path), first, "--json")
    assert rerolled.returncode == 0, rerolled.stderr
    new_take = str(json.loads(rerolled.stdout)[0]["take"])
    assert f"kamishibai use {shlex.quote(str(path))} {first} {new_take}" in rerolled.stderr  # the path as given
    assert _tree(path)[first]["selected_take"] == old_take

    done = kamishibai("use", str(path), first[:6], new_take[:6])
    assert done.returncode == 0, done.stderr
    assert f"turn {first} uses take {new_take} (take 2 of 2)" in done.stdout
    assert f"1 turn(s) after it were made from another take and are now out of date: {second}" in done.stdout
    # the turns out of date are made again, not the one just chosen (its new take would replace the choice)
    assert f"kamishibai reroll {shlex.quote(str(path))} {second} --branch" in done.stdout
    assert _tree(path)[first]["selected_take"] == new_take

    back = kamishibai("use", str(path), first, "1")  # by number: the turn's first take
    if new_take.startswith("1"):  # "1" also starts the other take's id: which one is meant is asked
        assert back.returncode == 2 and "is both take number 1" in back.stderr, back.stderr
        back = kamishibai("use", str(path), first, old_take)
    assert back.returncode == 0 and _tree(path)[first]["selected_take"] == old_take


def test_use_refuses_an_unknown_take_and_one_whose_clip_is_gone(tmp_path: Path) -> None:
    path = tmp_path / "trip.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    played = json.loads(kamishibai("play", str(path), "Qiqi runs", "--json").stdout)
    node, take = str(played["node"]), str(played["take"])
    unknown = kamishibai("use", str(path), node, "zz")
    assert unknown.returncode == 2 and f"Turn {node} has no take 'zz'" in unknown.stderr
    assert f"1: {take}" in unknown.stderr
    beyond = next(str(n) for n in range(2, 100) if not take.startswith(str(n)))  # no take of that number
    assert kamishibai("use", str(path), node, beyond).returncode == 2
    Path(str(played["clip"])).unlink()
    gone = kamishibai("use", str(path), node, take)
    assert gone.returncode == 2 and "lost its clip file" in gone.stderr
