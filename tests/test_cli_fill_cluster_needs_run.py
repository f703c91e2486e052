"""`fill --cluster` without `--run` queued the takes and printed "engines run on a Ray instance
on this machine", though nothing ran anywhere: the option is refused (status 2) with the
command that does generate them there, and nothing is queued."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


def test_fill_refuses_a_cluster_without_run_and_queues_nothing(tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Qiqi runs\nQiqi jumps\n", encoding="utf-8")
    project = tmp_path / "my story.kamishibai"
    assert kamishibai("import-demo", str(demo), "--project", str(project)).returncode == 0

    refused = kamishibai("fill", str(project), "--cluster", "local")
    assert refused.returncode == 2, refused.stderr
    assert "--cluster needs --run: fill without --run only queues the takes." in refused.stderr
    assert f"kamishibai run-queue '{project}' --cluster local" in refused.stderr
    assert "Ray" not in refused.stderr, "it no longer says the engines run on a cluster"

    listed = kamishibai("queue", str(project), "--all", "--json")
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout) == [], "nothing was queued"

    queued = kamishibai("fill", str(project))  # without the cluster it queues as before
    assert queued.returncode == 0 and "queued 2 turns without a take" in queued.stdout, queued.stdout
