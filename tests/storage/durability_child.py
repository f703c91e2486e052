"""Child process for the durability test: applies edits and acknowledges each one.

Usage: python durability_child.py PROJECT RUN COUNT
Prints ``ack <kind> <id>`` (flushed) only after ``project.apply`` has returned.
"""

from __future__ import annotations

import sys

from studio.core import AddTake, AddTurn, SetNotes, StateDeltas, Take
from studio.storage import Project


def main() -> None:
    path, run, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    project = Project.open(path)
    parent = project.tree.root_id
    print("ready", flush=True)
    for i in range(count):
        node_id = f"r{run:02d}n{i:04d}"
        text = f"Character: Qiqi; Motion: walk; Background: day town; Step: {i}"
        project.apply(AddTurn(parent, text, node_id=node_id))
        print(f"ack node {node_id}", flush=True)
        if i % 3 == 0:
            project.apply(SetNotes(node_id, f"note {i}"))
            print(f"ack notes {node_id}", flush=True)
        if i % 5 == 0:
            take = Take(id=f"{node_id}t", node_id=node_id, engine="fake", deltas=StateDeltas(-1, 1, 0))
            project.apply(AddTake(take))
            print(f"ack take {take.id}", flush=True)
        parent = node_id if i % 4 else project.tree.root_id


if __name__ == "__main__":
    main()
