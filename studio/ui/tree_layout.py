"""A tidy left-to-right layout of the story tree, in pure Python.

Time flows right (a node's column is its depth) and alternatives stack downwards: every
leaf gets the next free row ("leaf slots") and a parent sits on the row of its first
child, so the first branch through any node reads as one straight line. The layout is
O(n) and iterative, so it is recomputed whole after a structural change (about 10 ms
for 10,000 nodes) and callers move only the items whose cell changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

COLUMN_WIDTH = 244.0
ROW_HEIGHT = 196.0


@dataclass(frozen=True, slots=True)
class Cell:
    depth: int
    row: int

    @property
    def x(self) -> float:
        return self.depth * COLUMN_WIDTH

    @property
    def y(self) -> float:
        return self.row * ROW_HEIGHT


def layout_tree(root_id: str, children: Callable[[str], Sequence[str]]) -> dict[str, Cell]:
    """Cell of every node reachable from ``root_id``; ``children`` lists ids in order."""
    cells: dict[str, Cell] = {}
    next_row = 0
    # Depth-first, children in order; a node's row is known once its first child's is.
    stack: list[tuple[str, int]] = [(root_id, 0)]
    pending_parent: dict[str, str] = {}
    while stack:
        node_id, depth = stack.pop()
        kids = children(node_id)
        if not kids:
            row = next_row
            next_row += 1
            cells[node_id] = Cell(depth, row)
            # Climb while this node is its parent's first child: the parent takes this row.
            current = node_id
            while current in pending_parent:
                parent = pending_parent.pop(current)
                cells[parent] = Cell(cells[current].depth - 1, row)
                current = parent
            continue
        pending_parent[kids[0]] = node_id
        for kid in reversed(kids):
            stack.append((kid, depth + 1))
    return cells


def row_count(cells: dict[str, Cell]) -> int:
    return 1 + max((c.row for c in cells.values()), default=-1)


def column_count(cells: dict[str, Cell]) -> int:
    return 1 + max((c.depth for c in cells.values()), default=-1)
