"""`kamishibai play` past a file-size limit (``ulimit -f``) too small for the project's
database left a new turn without a take behind and still said "Nothing was lost": the turn
was saved, its clip could not be written, and removing the turn failed as the database could
not grow. The turn is now refused before it is added, saying why, and the project is left as
it was. Where a failed turn still can't be removed, the message says that it stays, without
a take, and which command gives it its take (running the same `play` again would add a
second turn beside it)."""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli.common import WorkFailedError
from studio.storage import Project
from studio.storage.errors import FILE_SIZE_LIMIT_HINT

ROOT = Path(__file__).resolve().parent.parent
LINE = "Character: Qiqi; Motion: run; Background: day town"
QUICK = ("--setting", "frames=3", "--setting", "width=64", "--setting", "height=48")
LIMIT = 40 * 1000
"""Less than a new project's database takes (about 68 KB)."""


def _limited() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _kamishibai(*args: str, limited: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          cwd=ROOT, preexec_fn=_limited if limited else None,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def _turns(path: Path) -> set[str]:
    with Project.open(path) as project:
        return set(project.tree.nodes)


def test_play_past_a_file_size_limit_leaves_the_project_as_it_was(tmp_path: Path) -> None:
    assert _kamishibai("new", str(tmp_path / "story")).returncode == 0
    path = tmp_path / "story.kamishibai"
    before = _turns(path)

    done = _kamishibai("play", str(path), LINE, *QUICK, limited=True)

    assert done.returncode == 1, done.stderr
    assert _turns(path) == before  # no turn without a take left behind
    assert "file-size limit" in done.stderr and "ulimit -f unlimited" in done.stderr, done.stderr
    assert "could not be removed" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    again = _kamishibai("play", str(path), LINE, *QUICK)  # once the limit is gone, the same command works
    assert again.returncode == 0, again.stderr
    assert len(_turns(path)) == len(before) + 1


def test_a_failed_turn_that_stays_is_said_to_stay_with_the_command_that_gives_it_a_take() -> None:
    from studio.cli.generate_cmds import _play_again_commands, _PlayRun, _raise_on_failure

    args = argparse.Namespace(path="my story.kamishibai", instruction=[LINE, "Character: Qiqi; Motion: sit"])
    failed = {"node": "abc123", "job": "j1", "job_status": "failed", "kept": True,
              "error": "Can't write clip.mp4: a file-size limit (ulimit -f) was reached.", "hint": FILE_SIZE_LIMIT_HINT,
              "not_removed": "The new turn abc123 could not be removed: Can't save the change: a file-size limit "
                             "(ulimit -f) was reached."}
    run = _PlayRun(results=[failed], parent="root0")

    with pytest.raises(WorkFailedError) as raised:
        _raise_on_failure(run.results, again=_play_again_commands(args, run), asked=2,
                          unchanged="Nothing was lost: the project is as it was before this turn.")

    message, hint = raised.value.message, raised.value.hint
    assert "abc123" in message and "stays in the project, without a take" in message, message
    assert "Nothing was lost" not in message + hint, hint
    assert "`kamishibai reroll 'my story.kamishibai' abc123`" in hint, hint
    assert "--parent abc123" in hint and "ulimit -f unlimited" in hint, hint
