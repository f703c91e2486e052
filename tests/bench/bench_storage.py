"""Project storage: create and open a 10,000-node project; one edit's commit latency."""

from __future__ import annotations

import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from studio.benchmarks import BenchResult, stopwatch
from studio.core import AddTurn, SetNotes, StateDeltas, Take
from studio.core.changes import EntityKind
from studio.core.instruction import parse_instruction
from studio.core.model import Node, now_iso
from studio.storage import Project

TITLE = "Project storage (10,000-node story)"


def story_patch(root: str, count: int) -> dict:
    """A branching story: each turn continues a random earlier one, half have a take."""
    rng = random.Random(7)
    patch: dict = {}
    ids = [root]
    for i in range(count):
        parent = ids[-1] if rng.random() < 0.8 else rng.choice(ids)
        node_id = f"n{i:06d}"
        take_id = f"t{i:06d}" if i % 2 == 0 else None
        text = f"Character: Qiqi; Motion: gently walk; Background: day town; Step: {i}"
        patch[(EntityKind.NODE, node_id)] = Node(node_id, parent, parse_instruction(text), position=i,
                                                 selected_take_id=take_id, created_at=now_iso())
        if take_id:
            patch[(EntityKind.TAKE, take_id)] = Take(id=take_id, node_id=node_id, engine="sketch",
                                                     deltas=StateDeltas(-1, 1, 0), created_at=now_iso())
        ids.append(node_id)
    return patch


def build_story(folder: Path, count: int) -> tuple[Path, float]:
    """Write a story of ``count`` turns. Returns the project and the seconds spent creating
    it and writing every row in one transaction (building the rows in memory not counted)."""
    start = time.perf_counter()
    project = Project.create(folder / "big")
    setup = time.perf_counter() - start
    patch = story_patch(project.tree.root_id, count)
    start = time.perf_counter()
    project.database.write_patch(patch)
    project.close()
    return project.path, setup + time.perf_counter() - start


def run(quick: bool) -> list[BenchResult]:
    count = 1_000 if quick else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        path, created_s = build_story(Path(tmp), count)
        opens, raws = [], []
        for _ in range(5):
            with stopwatch() as raw:
                conn = sqlite3.connect(path / "project.db")
                conn.execute("SELECT * FROM nodes").fetchall()
                conn.execute("SELECT * FROM takes").fetchall()
                conn.close()
            raws.append(raw[0])
            with stopwatch() as opened:
                project = Project.open(path)
                project.tree.state_of(f"n{count - 1:06d}")  # the state at the end of the last turn
            opens.append(opened[0])
            project.close()
        with Project.open(path) as project:
            with stopwatch() as states:
                for node_id in project.tree.nodes:
                    project.tree.state_of(node_id)
            latencies = []
            root = project.tree.root_id
            for i in range(50):
                start = time.perf_counter()
                project.apply(AddTurn(root, f"turn {i}", node_id=f"bench{i}"))
                project.apply(SetNotes(f"bench{i}", "x"))
                latencies.append((time.perf_counter() - start) / 2)
            assert len(project.tree.nodes) == count + 51
    open_s = min(opens)
    raw_s = min(raws)
    both = created_s + open_s
    return [
        BenchResult("create the project and write every row (one transaction)", created_s, "s",
                    note=f"{count:,} nodes, {count // 2:,} takes"),
        BenchResult("open + build the in-memory tree", open_s, "s", goal="< 0.5 s", met=open_s < 0.5,
                    baseline=f"raw SELECT of the same rows: {raw_s:.3f} s", ratio=open_s / raw_s,
                    note="best of 5; includes schema/quick_check and path checks"),
        BenchResult("create, then open and build the tree", both, "s", goal="< 0.5 s", met=both < 0.5),
        BenchResult("state of every node (cold cache)", states[0], "s", note=f"{count:,} nodes"),
        BenchResult("one edit, committed (median)", statistics.median(latencies) * 1000, "ms",
                    note="WAL, synchronous=FULL, fsync per command"),
    ]
