"""A command started without stdout or stderr (`>&-`, `2>&-`, a service that closes them)
does its work, its output to a closed stream dropped.

QA: `fill --run --json 2>&-` printed the queued jobs, then "internal error: AttributeError"
onto stdout (after the JSON a script reads), exit status 1, the jobs not run; `play >&-`
made the turn, then said "internal error" with exit status 1; `tree nope 2>&-` printed
its error on stdout. The engine process inherited the closed stream, so the null device
put in its place must be inherited too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from studio.storage import Project

REPO = Path(__file__).resolve().parents[2]
QUICK = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")
DEMO = "Character: Qiqi; Motion: run; Background: day town\nCharacter: Qiqi; Motion: jump; Background: day town\n"


def _without(closing: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``kamishibai ARGS`` in a real process started with ``closing`` (``>&-`` or ``2>&-``);
    the stream left open is captured."""
    return subprocess.run(["/bin/sh", "-c", f'exec "$@" {closing}', "sh", sys.executable, "-m", "studio", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=300, check=False,
                          env={k: v for k, v in os.environ.items() if k != "KAMISHIBAI_ENGINE_HOST"})


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=300, check=False)


def test_fill_run_json_without_stderr_runs_the_jobs_and_prints_only_json(tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text(DEMO, encoding="utf-8")
    folder = str(tmp_path / "story ü")
    assert _kamishibai("import-demo", str(demo), "--project", folder).returncode == 0
    done = _without("2>&-", "fill", folder, "--run", "--json", *QUICK)
    assert done.returncode == 0, done.stdout[-2000:]
    jobs = json.loads(done.stdout)  # nothing but the document
    assert [job["status"] for job in jobs] == ["done", "done"]
    with Project.open(folder + ".kamishibai", read_only=True) as project:
        assert len(project.tree.takes) == 2


def test_an_error_without_stderr_stays_off_stdout(tmp_path: Path) -> None:
    refused = _without("2>&-", "tree", str(tmp_path / "nothing here"), "--json")
    assert refused.returncode == 2
    assert refused.stdout == ""


def test_play_without_stdout_makes_its_turn_in_an_engine_process(tmp_path: Path) -> None:
    folder = str(tmp_path / "story")
    assert _kamishibai("new", folder).returncode == 0
    for _ in range(3):  # each starts an engine process of its own
        played = _without(">&-", "play", folder, "-i", "Character: Qiqi; Motion: wave; Background: day town.",
                          *QUICK)
        assert played.returncode == 0, played.stderr[-2000:]
        assert "internal error" not in played.stderr
    with Project.open(folder + ".kamishibai", read_only=True) as project:
        assert len(project.tree.nodes) == 4 and len(project.tree.takes) == 3


def test_an_engine_process_gets_the_stream_its_command_was_started_without() -> None:
    """The descriptor put in place of a closed stdout is inherited, as a standard stream is:
    a child started by the command has a stdout to write to."""
    script = ("import subprocess, sys\n"
              "from studio.cli import _open_closed_standard_streams\n"
              "_open_closed_standard_streams()\n"
              "child = 'import os, sys; os.fstat(1); os.write(1, b\"x\"); sys.exit(0)'\n"
              "sys.exit(subprocess.run([sys.executable, '-c', child], stderr=subprocess.DEVNULL).returncode)\n")
    ran = subprocess.run(["/bin/sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-c", script],
                         capture_output=True, text=True, cwd=REPO, timeout=60, check=False)
    assert ran.returncode == 0, ran.stderr
