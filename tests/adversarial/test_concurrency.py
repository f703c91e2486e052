"""Two processes at once on one project: whatever the interleaving, the document's rules
hold (issue 11, items 3 and 5, and the acceptance race)."""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from .conftest import QUICK, kamishibai, new_project, play
from .document_rules import check_rules

pytestmark = pytest.mark.slow


def _line(tag: str) -> str:
    return f"Character: Qiqi; Motion: run {tag}; Background: day town"


def _parallel(*commands: list[str]) -> list[subprocess.CompletedProcess[str]]:
    results: list[subprocess.CompletedProcess[str] | None] = [None] * len(commands)

    def run(index: int) -> None:
        results[index] = kamishibai(*commands[index], timeout=300)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(commands))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(r is not None for r in results)
    return results  # type: ignore[return-value]


def test_two_play_loops_then_reroll_races_keep_the_rules(tmp_path: Path) -> None:
    """Acceptance: two 10-turn `play` loops, then `reroll` races (a node and its child,
    a branch and a play): every stale flag is what the rules give from scratch, siblings
    never share a position, no take points at missing media."""
    path = new_project(tmp_path / "race")
    outcomes: dict[str, list[subprocess.CompletedProcess[str]]] = {"a": [], "b": []}

    def loop(tag: str) -> None:
        for i in range(10):
            outcomes[tag].append(kamishibai("play", str(path), "-i", _line(f"{tag}{i}"), *QUICK, "--json",
                                            "--wait", "300", timeout=400))

    threads = [threading.Thread(target=loop, args=(tag,)) for tag in outcomes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for runs in outcomes.values():
        assert [r.returncode for r in runs] == [0] * 10, [r.stderr for r in runs if r.returncode]
    report = check_rules(path)
    print("after the play loops:", report)
    assert report.nodes == 21 and report.ok, report

    tree = json.loads(kamishibai("tree", str(path), "--json").stdout)
    children: dict[str, list[str]] = {}
    for node in tree["nodes"]:
        if node["parent"]:
            children.setdefault(node["parent"], []).append(node["id"])
    pairs = [(parent, kids[0]) for parent, kids in children.items() if parent != tree["root"]][:3]
    assert len(pairs) == 3
    for parent, child in pairs:
        results = _parallel(["reroll", str(path), parent, *QUICK, "--wait", "300"],
                            ["reroll", str(path), child, *QUICK, "--wait", "300"])
        assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
    first = pairs[0][0]
    results = _parallel(["reroll", str(path), first, "--branch", *QUICK, "--wait", "300"],
                        ["play", str(path), "-i", _line("late"), "--parent", first, *QUICK, "--wait", "300"])
    assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
    report = check_rules(path)
    print("after the reroll races:", report)
    assert report.ok, report
    assert report.takes >= 20 + 6 + 2


def test_a_second_writer_waits_then_names_the_holder(tmp_path: Path) -> None:
    path = new_project(tmp_path / "held")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom studio.storage import Project\n"
         "from studio.storage.lock import set_process_label\nset_process_label('the test holder')\n"
         "p = Project.open(sys.argv[1])\nprint('held', flush=True)\ntime.sleep(60)\n", str(path)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        start = time.monotonic()
        refused = kamishibai("play", str(path), "-i", _line("x"), *QUICK, "--wait", "1")
        assert refused.returncode == 2
        assert time.monotonic() - start >= 1
        assert "being changed by the test holder" in refused.stderr and f"process {holder.pid}" in refused.stderr
        assert "damaged" not in refused.stderr
        # reading commands work meanwhile
        assert kamishibai("tree", str(path)).returncode == 0
        assert kamishibai("info", str(path)).returncode == 0
        assert kamishibai("queue", str(path)).returncode == 0
    finally:
        holder.kill()
        holder.wait()
    # SIGKILL released the lock: the next writer goes ahead at once
    assert play(path)["job_status"] == "done"


def test_recovery_decides_from_the_database_not_from_an_old_tree(tmp_path: Path) -> None:
    """Item 3: B read the tree; A committed its take and died before marking its job
    done; B's crash recovery must keep A's media (the take row exists)."""
    from studio.composition import default_registry
    from studio.storage import Project
    from studio.worker import GenerationService, JobStatus

    path = new_project(tmp_path / "recover")
    first = play(path)
    b = Project.open(path)  # B: its tree has the first take only
    try:
        # A, through its own connection: a job it ran, its take committed, then death.
        take_a = "a0a0a0a0a0"
        source = Path(first["clip"]).parent
        shutil.copytree(source, path / "media" / "takes" / take_a)
        (path / "media" / "takes" / take_a / Path(first["clip"]).name).rename(
            path / "media" / "takes" / take_a / f"take-{take_a}.mp4")  # as the row names it
        conn = sqlite3.connect(path / "project.db", isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO takes SELECT ?, node_id, engine, engine_version, settings, seed, d_stamina, "
                     "d_social, d_entertainment, motion_level, replace(representation_path, take, ?), "
                     "replace(clip_path, take, ?), replace(poster_path, take, ?), timings, status, error, warnings, "
                     "stale, parent_take_id, instruction_raw, conditioning, created_at, hint, start_state FROM takes "
                     "JOIN (SELECT ? AS take) WHERE id = ?",
                     (take_a, take_a, take_a, take_a, first["take"], first["take"]))
        conn.execute("UPDATE nodes SET selected_take_id=? WHERE id=?", (take_a, first["node"]))
        conn.execute("UPDATE takes SET stale=0")
        conn.execute("INSERT INTO jobs (id, node_id, engine, seed, status, sequence, take_id, owner) "
                     "VALUES ('jobA', ?, 'sketch', 1, 'running', 99, ?, ?)",
                     (first["node"], take_a, f"{socket.gethostname()}:{2**22 + 4321}"))
        conn.execute("COMMIT")
        conn.close()
        service = GenerationService(b, default_registry())
        job = service.job("jobA")
        assert (path / "media" / "takes" / take_a / f"take-{take_a}.mp4").is_file(), "recovery deleted a finished take"
        assert job.status is JobStatus.DONE and job.take_id == take_a
    finally:
        b.close()
    assert check_rules(path).missing_media == []
