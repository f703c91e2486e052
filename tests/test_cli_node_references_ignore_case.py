"""A node reference typed in capitals (`7E3A`, `ROOT`, `Start`) was "No node": ids are
lower-case hex, and nobody reading one aloud says which case it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli.common import resolve_node
from studio.core.errors import StudioError
from studio.storage import Project


def test_a_reference_in_capitals_names_the_node(tmp_path: Path) -> None:
    from studio.core.commands import AddTurn

    with Project.create(tmp_path / "p.kamishibai") as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town."))
        tree = project.tree
        turn = next(n for n in tree.nodes if n != tree.root_id)
        assert resolve_node(tree, turn[:6].upper()) == turn
        assert resolve_node(tree, turn.upper()) == turn
        for name in ("ROOT", "Start", " root "):
            assert resolve_node(tree, name) == tree.root_id
        with pytest.raises(StudioError, match="No node"):
            resolve_node(tree, "ZZZZ")
