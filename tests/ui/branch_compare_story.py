"""A sample story with both its branches generated, for the tests of the Compare branches window."""

from __future__ import annotations

from typing import Any

JOB_TIMEOUT_MS = 120_000


def generate_every_branch(window: Any, qtbot: Any) -> list[str]:
    """Generate every turn of every branch of the window's story (Fill on each leaf, in turn);
    the leaves, top to bottom."""
    tree = window.session.project.tree
    leaves = [leaf.id for leaf in tree.leaves_under(tree.root_id)]
    for leaf in leaves:
        window.workspace.select(leaf, center=False)
        window.actions_.fill.trigger()
        qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    window.session.settle()
    return leaves


def parted_at(tree: Any, a: str, b: str) -> int:
    """The last turn two leaves' branches share (0: they part at the start)."""
    first = [n.id for n in tree.path_to(a)]
    second = [n.id for n in tree.path_to(b)]
    same = 0
    while same < min(len(first), len(second)) and first[same] == second[same]:
        same += 1
    return same - 1
