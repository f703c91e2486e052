"""Ctrl+C stopping `kamishibai reroll P NODE --branch` where NODE has two branches below it
said "`kamishibai reroll P FIRST --branch` goes on from there", FIRST being the first turn left
(breadth first): run as given, it re-rolled FIRST's branch only, and the turns left on the other
branch kept their old takes. The hint now gives one command per part of the tree left, and
those commands together re-roll exactly the turns left."""

from __future__ import annotations

import shlex
from pathlib import Path

from studio.cli import main
from studio.cli.generate_cmds import reroll_commands
from studio.core.tree import StoryTree
from studio.storage import Project


def _sample(tmp_path: Path) -> tuple[Path, StoryTree]:
    project = tmp_path / "my story.kamishibai"
    assert main(["sample", str(project), "--no-generate"]) == 0
    with Project.open(project, read_only=True) as opened:
        return project, opened.tree


def _turns_rerolled_by(tree: StoryTree, command: str) -> list[str]:
    """The turns the command re-rolls, as `reroll` reads its arguments."""
    args = shlex.split(command)
    node = args[3]
    return [node, *(n.id for n in tree.descendants(node))] if "--branch" in args else [node]


def test_turns_left_on_two_branches_get_a_command_each(tmp_path: Path) -> None:
    project, tree = _sample(tmp_path)
    fork = next(node for node in tree.nodes.values() if len(tree.children(node.id)) == 2)
    order = [fork.id, *(node.id for node in tree.descendants(fork.id))]  # as `reroll --branch` runs them
    first_a, first_b = tree.children(fork.id)
    left = order[order.index(first_b.id) + 2:]  # done: the fork, both branches' first turns and one below
    for branch in (first_a, first_b):  # turns are left on both branches
        assert set(left) & {node.id for node in tree.descendants(branch.id)}, (branch.id, left)

    commands = reroll_commands(tree, str(project), left)
    rerolled = [node for command in commands for node in _turns_rerolled_by(tree, command)]
    assert sorted(rerolled) == sorted(left)  # every turn left, none twice, no turn already re-rolled
    assert len(commands) == 2
    assert all(command.startswith(f"kamishibai reroll {shlex.quote(str(project))} ") for command in commands)


def test_one_turn_left_with_turns_below_it_is_one_branch_command(tmp_path: Path) -> None:
    project, tree = _sample(tmp_path)
    first = tree.children(tree.root_id)[0].id
    left = [first, *(node.id for node in tree.descendants(first))]
    assert reroll_commands(tree, str(project), left) == [
        f"kamishibai reroll {shlex.quote(str(project))} {first} --branch"]
    leaf = tree.leaves_under(tree.root_id)[-1].id
    assert reroll_commands(tree, str(project), [leaf]) == [f"kamishibai reroll {shlex.quote(str(project))} {leaf}"]
