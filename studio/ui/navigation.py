"""Moving through the tree with the arrow keys (Home and End: the ends of the branch), and the
branch shown for a selection.

The studio remembers which child you came back from (``last_child``), so Left then Right
returns to the same alternative, and the branch through a node continues along the
children you visited last (else the first child).
"""

from __future__ import annotations

from collections.abc import Mapping

from studio.core.tree import StoryTree


def branch_through(tree: StoryTree, node_id: str, last_child: Mapping[str, str]) -> list[str]:
    """Root-to-leaf ids passing through ``node_id``."""
    path = [n.id for n in tree.path_to(node_id)]
    current = node_id
    seen = set(path)
    while True:
        kids = tree.child_ids(current)
        if not kids:
            return path
        remembered = last_child.get(current)
        current = remembered if remembered in kids else kids[0]
        if current in seen:  # defensive: a corrupt tree must not hang the GUI
            return path
        seen.add(current)
        path.append(current)


def neighbour(tree: StoryTree, node_id: str, move: str, last_child: Mapping[str, str]) -> str | None:
    """The node reached from ``node_id`` by ``move`` (parent, child, prev, next; first, last:
    the ends of the branch through it, as Left and Right held down reach them), or None
    where the move goes nowhere."""
    node = tree.node(node_id)
    if move in ("first", "last"):
        branch = branch_through(tree, node_id, last_child)
        end = branch[0] if move == "first" else branch[-1]
        return None if end == node_id else end
    if move == "parent":
        return node.parent_id
    if move == "child":
        kids = tree.child_ids(node_id)
        if not kids:
            return None
        remembered = last_child.get(node_id)
        return remembered if remembered in kids else kids[0]
    if node.parent_id is None:
        return None
    siblings = tree.child_ids(node.parent_id)
    index = siblings.index(node_id) + (-1 if move == "prev" else 1)
    return siblings[index] if 0 <= index < len(siblings) else None
