"""A `reroll --branch` killed after it queued its jobs is run on with `run-queue
--requeue-interrupted`. When a job then failed, `run-queue` said only "`kamishibai fill P
--run` queues the turns left without a take again": but the re-rolled turns keep their
earlier takes, so that command answered "nothing to queue" and the re-roll could not be
finished from what the studio said. It now names the `reroll` command that makes them
again, and that command, run as given, does."""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

QUEUE_THEN_DIE = textwrap.dedent("""
    import os, signal, sys
    import studio.cli.generate_cmds as commands
    from studio.cli import main

    def killed_before_running(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)  # the jobs are queued; nothing has run

    commands._run_now = killed_before_running
    sys.exit(main(sys.argv[1:]))
""")

DECODE_FAILS = textwrap.dedent("""
    import sys
    from studio.engines.sketch.engine import SketchEngine
    from studio.cli import main

    def decode(*args, **kwargs):
        raise RuntimeError("the decoder broke")

    SketchEngine.decode = decode
    sys.exit(main(sys.argv[1:]))
""")


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)


def script(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)


def test_a_failed_branch_reroll_names_the_reroll_that_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "my story.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    played = kamishibai("play", str(path), "--json", "Character: Qiqi; Motion: run.", "Character: Qiqi; Motion: walk.")
    assert played.returncode == 0, played.stderr
    first, second = json.loads(played.stdout)

    killed = script(QUEUE_THEN_DIE, "reroll", "--branch", str(path), first["node"])
    assert killed.returncode == -signal.SIGKILL
    ran = script(DECODE_FAILS, "run-queue", "--requeue-interrupted", "--engine-host", "in-process", "--quiet",
                 str(path))

    assert ran.returncode == 1
    assert "0 done, 1 failed, 1 cancelled" in ran.stderr, ran.stderr
    command = f"kamishibai reroll --branch {shlex.quote(str(path))} {first['node']}"
    assert f"`{command}` makes the new takes again" in ran.stderr, ran.stderr
    assert "kamishibai fill" not in ran.stderr  # it would find nothing to queue
    assert "nothing to queue" in kamishibai("fill", str(path)).stdout

    again = kamishibai(*shlex.split(command)[1:], "--json")  # the cause is gone: as given, it goes on
    assert again.returncode == 0, again.stderr
    tree = json.loads(kamishibai("tree", "--json", str(path)).stdout)
    done = {node["id"]: [take["id"] for take in node["takes"] if take["status"] == "done"] for node in tree["nodes"]}
    assert len(done[first["node"]]) == 2 and len(done[second["node"]]) == 2
