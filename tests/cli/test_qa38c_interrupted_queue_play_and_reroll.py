"""A `run-queue` killed while it made a mini take leaves that job interrupted and the jobs
after it waiting for it. A plain `play` then continued the last turn, whose queued job waited
behind the interrupted one: it waited for ever, printing nothing, holding the writer lock. Now
it is refused at once (exit status 2), naming the commands that unblock the queue. A `reroll`
of the interrupted turn made its replacement with sketch at its default size; now it keeps the
interrupted job's engine and settings (and says so) unless --engine is given."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.process_state import engine_process_of

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the engine process through /proc")

TURNS = ("Qiqi walks to the bakery", "Qiqi waves at the bakery", "Qiqi jumps in the park")


def kamishibai(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=timeout)


def _jobs(project: Path) -> list[dict[str, object]]:
    listed = kamishibai("queue", str(project), "--all", "--json")
    assert listed.returncode == 0, listed.stderr
    jobs: list[dict[str, object]] = json.loads(listed.stdout)
    return jobs


def _turn_count(project: Path) -> int:
    tree = kamishibai("tree", str(project), "--json")
    assert tree.returncode == 0, tree.stderr
    return len(json.loads(tree.stdout)["nodes"])


@pytest.fixture(scope="module")
def killed_queue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project of three imported turns, their mini jobs (frames=4) queued by `fill`, and a
    `run-queue` killed (SIGKILL) while it made the first: that job is interrupted, the two
    others wait for it."""
    folder = tmp_path_factory.mktemp("killed")
    demo = folder / "demo.txt"
    demo.write_text("".join(f"{turn}\n" for turn in TURNS), encoding="utf-8")
    project = folder / "story.kamishibai"
    assert kamishibai("import-demo", str(demo), "--project", str(project)).returncode == 0
    filled = kamishibai("fill", str(project), "--engine", "mini", "--setting", "frames=4")
    assert filled.returncode == 0, filled.stderr
    run = subprocess.Popen([sys.executable, "-m", "studio", "run-queue", str(project), "--engine-host", "process"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while run.poll() is None and engine_process_of(run.pid) is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    statuses = sorted(str(job["status"]) for job in _jobs(project))
    assert statuses == ["blocked", "blocked", "interrupted"], statuses
    return project


@pytest.fixture
def project(killed_queue: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "story.kamishibai"
    shutil.copytree(killed_queue, copy)
    return copy


def _interrupted(project: Path) -> dict[str, object]:
    (job,) = [job for job in _jobs(project) if job["status"] == "interrupted"]
    return job


def test_play_after_a_killed_run_queue_is_refused_at_once(project: Path) -> None:
    interrupted = _interrupted(project)
    turns = _turn_count(project)
    played = kamishibai("play", str(project), "--wait", "0", "--setting", "frames=4", "Qiqi runs", timeout=60)
    assert played.returncode == 2, (played.stdout, played.stderr)
    err = played.stderr
    assert f"waits for interrupted job {interrupted['id']}" in err, err
    assert "has no take yet" in err and "Nothing was changed by this play" in err, err
    assert f"kamishibai run-queue {project} --requeue-interrupted" in err, err
    assert f"kamishibai queue {project} --cancel-interrupted" in err, err
    assert _turn_count(project) == turns  # no turn was added
    assert len(_jobs(project)) == 3  # and no job queued

    # the writer lock was given back: the named command runs, and then play does
    cancelled = kamishibai("queue", str(project), "--cancel-interrupted", "--wait", "0")
    assert cancelled.returncode == 0, cancelled.stderr
    played = kamishibai("play", str(project), "--wait", "0", "Qiqi runs", timeout=120)
    assert played.returncode == 0, played.stderr
    assert _turn_count(project) == turns + 1


def test_reroll_of_a_turn_after_a_blocked_one_is_refused_at_once(project: Path) -> None:
    interrupted = _interrupted(project)
    last = [job for job in _jobs(project) if job["status"] == "blocked"]
    nodes = json.loads(kamishibai("tree", str(project), "--json").stdout)["nodes"]
    third = next(node["id"] for node in nodes if node.get("instruction") == TURNS[2])
    rerolled = kamishibai("reroll", str(project), str(third), "--engine", "sketch", "--wait", "0", timeout=60)
    assert rerolled.returncode == 2, (rerolled.stdout, rerolled.stderr)
    assert f"waits for interrupted job {interrupted['id']}" in rerolled.stderr, rerolled.stderr
    assert "Nothing was changed by this reroll" in rerolled.stderr, rerolled.stderr
    assert [job for job in _jobs(project) if job["status"] == "blocked"] == last


def test_reroll_of_the_interrupted_turn_keeps_its_engine_and_settings(project: Path) -> None:
    interrupted = _interrupted(project)
    rerolled = kamishibai("reroll", str(project), str(interrupted["node"]), "--setting", "fps=6", timeout=300)
    assert rerolled.returncode == 0, rerolled.stderr
    err = rerolled.stderr
    assert (f"made with the engine and settings of its interrupted job {interrupted['id']}: mini (fps=6, frames=4)"
            in err), err
    assert f"cancelled 1 interrupted job of this turn ({interrupted['id']})" in err, err
    (new,) = [job for job in _jobs(project) if job["node"] == interrupted["node"] and job["id"] != interrupted["id"]]
    assert new["status"] == "done", new
    assert new["engine"] == "mini", new
    assert new["settings"] == {"frames": 4, "fps": 6}, new


def test_reroll_with_engine_uses_the_engine_given(project: Path) -> None:
    interrupted = _interrupted(project)
    rerolled = kamishibai("reroll", str(project), str(interrupted["node"]), "--engine", "sketch", timeout=300)
    assert rerolled.returncode == 0, rerolled.stderr
    assert "engine and settings of its interrupted job" not in rerolled.stderr, rerolled.stderr
    (new,) = [job for job in _jobs(project) if job["node"] == interrupted["node"] and job["id"] != interrupted["id"]]
    assert new["engine"] == "sketch", new
