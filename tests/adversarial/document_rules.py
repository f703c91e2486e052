"""The document's rules, recomputed from scratch from the raw database rows.

Written independently of :mod:`studio.core.commands` (which keeps the flags up to date
edit by edit), so that a test can tell whether what the app stored is what the rules say.
"""

from __future__ import annotations

import functools
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class RuleReport:
    takes: int = 0
    nodes: int = 0
    wrong_stale: list[str] = field(default_factory=list)
    shared_positions: list[tuple[str, int]] = field(default_factory=list)
    missing_media: list[str] = field(default_factory=list)
    unfinished_jobs: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.wrong_stale or self.shared_positions or self.missing_media or self.unfinished_jobs)

    def __str__(self) -> str:
        return (f"{self.nodes} nodes, {self.takes} takes: {len(self.wrong_stale)} wrong stale flag(s), "
                f"{len(self.shared_positions)} shared sibling position(s), {len(self.missing_media)} missing "
                f"media file(s), {len(self.unfinished_jobs)} unfinished job(s)")


def check_rules(project: Path) -> RuleReport:
    conn = sqlite3.connect(project / "project.db")
    try:
        nodes = {r[0]: r[1:] for r in conn.execute(
            "SELECT id, parent_id, position, instruction, selected_take_id FROM nodes")}
        takes = {r[0]: r[1:] for r in conn.execute(
            "SELECT id, node_id, stale, parent_take_id, instruction_raw, clip_path, poster_path, "
            "representation_path FROM takes")}
        jobs = conn.execute("SELECT id, status FROM jobs").fetchall()
    finally:
        conn.close()
    report = RuleReport(takes=len(takes), nodes=len(nodes))

    @functools.cache
    def fresh(take_id: str) -> bool:
        node_id, _stale, made_from, instruction_raw = takes[take_id][:4]
        parent_id, _position, instruction, _selected = nodes[node_id]
        context = nodes[parent_id][3] or ""
        context_fresh = not context or fresh(context)
        same_instruction = not instruction_raw or instruction_raw == instruction
        return made_from == context and context_fresh and same_instruction

    for take_id, row in takes.items():
        if bool(row[1]) == fresh(take_id):
            report.wrong_stale.append(take_id)
        for rel in row[4:7]:
            if rel and not (project / rel).is_file():
                report.missing_media.append(f"{take_id}: {rel}")
    positions = Counter((parent, position) for parent, position, _i, _s in nodes.values() if parent is not None)
    report.shared_positions = [key for key, count in positions.items() if count > 1]
    report.unfinished_jobs = [job_id for job_id, status in jobs if status in ("running", "queued")]
    return report
