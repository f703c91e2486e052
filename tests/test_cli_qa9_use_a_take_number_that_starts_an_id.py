"""`kamishibai use P NODE 2` where another take's id starts with "2" (ids are hex: it happens
often) is refused as ambiguous, with the hint "Give more characters of the take's id", which
named neither take: the user who meant take number 2 had to look its id up with `tree
--json`. The hint now gives the id of each take the text names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from studio.core.commands import AddTake
from studio.core.model import Take, TakeStatus
from studio.storage import Project


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


def test_the_hint_names_the_take_of_that_number_and_the_ids_it_starts(tmp_path: Path) -> None:
    path = tmp_path / "trip.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    played = json.loads(kamishibai("play", str(path), "Qiqi runs", "--json").stdout)
    node, first = str(played["node"]), str(played["take"])
    other = "1" + ("e" if first.startswith("1f") else "f") * 9  # a failed take whose id starts with "1"
    with Project.open(path) as project:
        project.apply(AddTake(Take(id=other, node_id=node, engine="sketch", status=TakeStatus.FAILED,
                                   error="Stopped.")))

    asked = kamishibai("use", str(path), node, "1")
    assert asked.returncode == 2, asked.stderr
    assert "'1' is both take number 1" in asked.stderr
    assert f"take number 1 is {first}" in asked.stderr and f"'1' starts {other}" in asked.stderr, asked.stderr

    chosen = kamishibai("use", str(path), node, first)  # the id the hint gave works
    assert chosen.returncode == 0 and f"uses take {first}" in chosen.stdout, chosen.stderr
