"""`play` prints beside each value how far the turn moved it: from stamina 3, a predicted drop
reads "stamina 0 (-3)", and the next turn, at 0 already, "stamina 0 (+0)"; `--json` keeps the
engine's predicted "deltas" and adds that "change"."""

from __future__ import annotations

import json
from pathlib import Path

from studio.cli import main
from studio.core.state import DELTA_SCALE
from studio.storage import Project

RUN = "Character: Qiqi; Motion: quickly run; Background: day park."
SMALL = ["--setting", "frames=4", "--setting", "width=96", "--setting", "height=64"]


def _state_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("state"))


def test_play_prints_the_change_applied_not_the_predicted(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "p.kamishibai"
    assert main(["new", str(folder)]) == 0
    assert main(["start-state", str(folder), "3", "50", "50"]) == 0
    capsys.readouterr()
    assert main(["play", str(folder), "-i", RUN, *SMALL]) == 0
    line = _state_line(capsys.readouterr().out)
    with Project.open(folder) as project:
        tree = project.tree
        turn = tree.child_ids(tree.root_id)[0]
        predicted = DELTA_SCALE * tree.selected_take(turn).deltas.stamina  # type: ignore[union-attr]
    assert predicted < -3, predicted  # the engine asked for more than stamina 3 had left
    assert "stamina 0 (-3)" in line, line
    assert f"({predicted:+d})" not in line, line

    assert main(["play", str(folder), "-i", RUN, *SMALL, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["deltas"]["stamina"] < 0  # the engine's prediction, in its steps
    assert result["state"]["stamina"] == 0
    assert result["change"]["stamina"] == 0  # stamina was at 0 already: nothing moved
    with Project.open(folder) as project:
        before = project.tree.state_before(result["node"]).as_dict()
    assert result["change"] == {stat: result["state"][stat] - before[stat] for stat in before}

    assert main(["play", str(folder), "-i", RUN, *SMALL]) == 0
    assert "stamina 0 (+0)" in _state_line(capsys.readouterr().out)
