"""SIGTERM (what `timeout`, `kill`, systemd and CI runners send) stops `play` and
`run-queue` the clean way Ctrl+C does, with exit status 143 (128 + SIGTERM). QA: its
default action killed the process on the spot: `play` kept a new turn without a take and
its job interrupted, `run-queue` left its job marked running, with nothing said about how to go on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from stop_midway import stop_midway, takes_started  # tests/ is on sys.path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX")

TURN = "Character: Qiqi; Motion: run; Background: day town."


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _terminated_once_a_take_starts(project: Path, *args: str, sigint_ignored: bool = False) -> tuple[int, str, str]:
    """Run `kamishibai ARGS` and send SIGTERM to it alone (as `kill PID` does) once the
    first take folder appears, the engine at work. ``sigint_ignored``: started with SIGINT
    ignored, as a script's `kamishibai ... &` is."""
    return stop_midway(list(args), takes_started(project), signal.SIGTERM, whole_group=False,
                       preexec_fn=_ignore_sigint if sigint_ignored else None)


def _jobs(project: Path) -> list[dict[str, object]]:
    return list(json.loads(kamishibai("queue", str(project), "--json").stdout))


@pytest.mark.parametrize("sigint_ignored", [False, True], ids=["plain", "sigint-ignored"])
def test_sigterm_during_play_keeps_no_turn_and_no_interrupted_job(tmp_path: Path, sigint_ignored: bool) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    code, out, err = _terminated_once_a_take_starts(project, "play", str(project), "-i", TURN, "--json",
                                                    "--setting", "frames=80", sigint_ignored=sigint_ignored)
    assert code == 143, err
    assert json.loads(out)["interrupted"] is True, out
    assert "the turn being generated was stopped" in err, err
    assert err.rstrip().endswith("kamishibai: terminated (SIGTERM)"), err
    assert "Traceback" not in err
    nodes = json.loads(kamishibai("tree", str(project), "--json").stdout)["nodes"]
    assert len(nodes) == 1, "the stopped turn is not kept"
    assert not [job for job in _jobs(project) if job["status"] == "interrupted"]


def test_sigterm_during_run_queue_says_what_is_left_as_ctrl_c_does(tmp_path: Path) -> None:
    demo = tmp_path / "long.txt"
    demo.write_text(f"{TURN}\n" * 6, encoding="utf-8")
    project = tmp_path / "long.kamishibai"
    assert kamishibai("import-demo", str(demo), "--project", str(project)).returncode == 0
    assert kamishibai("fill", str(project)).returncode == 0
    code, _out, err = _terminated_once_a_take_starts(project, "run-queue", str(project), "--quiet")
    assert code == 143, err
    assert "job(s) still queued" in err, err
    assert err.rstrip().endswith("kamishibai: terminated (SIGTERM)"), err
    assert "Traceback" not in err
    interrupted = [job["id"] for job in _jobs(project) if job["status"] == "interrupted"]
    if interrupted:  # as after Ctrl+C: the stopped job is named, with the command that goes on
        assert f"job(s) {interrupted[0]} interrupted (no take kept)" in err, err
        assert f"`kamishibai run-queue {project} --requeue-interrupted` goes on from there." in err, err
    resumed = kamishibai("run-queue", str(project), "--quiet", *(["--requeue-interrupted"] if interrupted else []))
    assert resumed.returncode == 0, resumed.stderr
    tree = json.loads(kamishibai("tree", str(project), "--json").stdout)
    assert all(node["selected_take"] for node in tree["nodes"][1:])


def test_sigint_still_gives_130(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    takes = project / "media" / "takes"
    running = subprocess.Popen([sys.executable, "-m", "studio", "play", str(project), "-i", TURN,
                                "--setting", "frames=80"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not (takes.is_dir() and any(takes.iterdir())):
            assert running.poll() is None and time.monotonic() < deadline, "no take was started"
            time.sleep(0.02)
        running.send_signal(signal.SIGINT)
        _out, err = running.communicate(timeout=120)
    finally:
        if running.poll() is None:
            os.killpg(running.pid, signal.SIGKILL)
    assert running.returncode == 130, err
    assert err.rstrip().endswith("kamishibai: interrupted"), err
