"""A file-size limit (``ulimit -f``, a service's LimitFSIZE) stops a take's files from being
written although the disk has room. QA: the message named the limit, but the hint said to
free some space, which does nothing for it. The hint now says to raise the limit; the takes
already saved are read back unchanged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .conftest import QUICK, new_project, play, run_confined

TAKES = "SELECT id, node_id, status, clip_path, seed FROM takes WHERE status = 'done' ORDER BY id"


def _done_takes(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute(TAKES).fetchall()
    conn.close()
    return rows


def test_a_take_stopped_by_a_file_size_limit_says_to_raise_it(tmp_path: Path) -> None:
    path = new_project(tmp_path / "story")
    node = play(path)["node"]
    before = _done_takes(path / "project.db")
    report = run_confined(tmp_path, [["reroll", str(path), node, *QUICK]], fsize=40 * 1024)
    (reroll,) = report.results
    assert reroll.returncode != 0
    assert "file-size limit" in reroll.stderr, reroll.stderr
    assert "ulimit -f unlimited" in reroll.stderr, reroll.stderr
    assert "Free some space" not in reroll.stderr, reroll.stderr
    assert _done_takes(path / "project.db") == before
