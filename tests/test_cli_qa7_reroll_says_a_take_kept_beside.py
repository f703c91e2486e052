"""QA7: `reroll` of a turn that later turns follow keeps the new take beside the chosen one.
It printed the new take's state as if it were the turn's, while `tree`, `export` and the next
`play` went on with the old take, and nothing said so. It now says which take stays chosen
and how to use the new one; a re-roll whose take is chosen says nothing more."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project

SMALL = ["--setting", "width=96", "--setting", "height=64", "--setting", "frames=3"]


def _chosen(path: Path, node: str) -> str:
    with Project.open(path, read_only=True) as project:
        take = project.tree.selected_take(node)
        assert take is not None
        return take.id


def test_a_take_kept_beside_the_chosen_one_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "story.kamishibai"
    assert main(["new", str(path)]) == 0
    assert main(["play", str(path), *SMALL, "--json", "Qiqi walks to the station at night",
                 "Yuzu waves at Qiqi"]) == 0
    capsys.readouterr()
    with Project.open(path, read_only=True) as project:
        leaf = project.tree.leaves_under(project.tree.root_id)[0].id
        first, second = (node.id for node in project.tree.path_to(leaf)[1:])
    chosen = _chosen(path, first)

    assert main(["reroll", str(path), first]) == 0
    out, err = capsys.readouterr()
    assert _chosen(path, first) == chosen  # kept beside, as the README says
    assert f"kept beside the chosen take {chosen}" in err
    assert "reroll --branch" in err

    assert main(["reroll", str(path), second]) == 0  # the last turn: its new take is chosen
    out, err = capsys.readouterr()
    assert "kept beside" not in err + out
