"""A child process applies 1,000 edits and is killed with SIGKILL at a random moment,
20 times. Every reopen must succeed and hold every acknowledged edit."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from studio.storage import Project

CHILD = Path(__file__).with_name("durability_child.py")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_never_loses_acknowledged_edits(tmp_path: Path) -> None:
    Project.create(tmp_path / "durable").close()
    path = tmp_path / "durable.kamishibai"
    rng = random.Random(20261130)
    acked: list[tuple[str, str]] = []
    for run in range(20):
        child = subprocess.Popen([sys.executable, str(CHILD), str(path), str(run), "1000"],
                                 stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        lines: list[str] = []
        reader = threading.Thread(target=lines.extend, args=(child.stdout,))
        reader.start()
        time.sleep(rng.uniform(0.05, 1.5))
        child.send_signal(signal.SIGKILL)
        child.wait()
        reader.join()
        run_acks = [tuple(line.split()[1:3]) for line in lines if line.startswith("ack ")]
        acked.extend(run_acks)  # type: ignore[arg-type]
        with Project.open(path) as project:
            tree = project.tree
            for kind, ident in acked:
                if kind == "node":
                    assert ident in tree.nodes, f"run {run}: acknowledged node {ident} lost"
                elif kind == "notes":
                    assert tree.nodes[ident].notes.startswith("note "), f"run {run}: notes of {ident} lost"
                else:
                    assert ident in tree.takes, f"run {run}: acknowledged take {ident} lost"
                    assert tree.nodes[ident[:-1]].selected_take_id == ident
    assert len(acked) > 20, "the child never got going; the test proved nothing"
