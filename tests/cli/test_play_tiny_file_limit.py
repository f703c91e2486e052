"""`kamishibai play` under a file-size limit too small for the project (`ulimit -f N` in the
shell that runs it) says that the limit is the problem and how to raise it, exits 1 (a
disk or limit problem) and changes nothing. QA: it was reported to say "Can't read
project.db", which sends the user to the file instead of the limit."""

from __future__ import annotations

import hashlib
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from user_limits import two_turn_project  # tests/ is on sys.path

from studio.cli import main


def _play_under(limit_blocks: int, project: Path) -> subprocess.CompletedProcess[str]:
    """`play` run by bash after `ulimit -f` (in 1024-byte blocks), as a user would type it."""
    play = shlex.join([sys.executable, "-m", "studio", "play", str(project), "Qiqi runs to the beach"])
    return subprocess.run(["bash", "-c", f"ulimit -f {limit_blocks} && exec {play}"], capture_output=True, text=True,
                          timeout=180)


def _state(project: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, list[str]]:
    """The story as `tree --json` prints it, and every file of the project with its digest."""
    capsys.readouterr()
    assert main(["tree", str(project), "--json"]) == 0
    files = sorted(f"{path.relative_to(project)} {hashlib.sha256(path.read_bytes()).hexdigest()}"
                   for path in project.rglob("*") if path.is_file() and path.name != "writer.lock")
    return capsys.readouterr().out, files


@pytest.mark.parametrize("limit_blocks", [16, 48], ids=["below-the-database", "below-its-room-to-grow"])
def test_play_says_the_limit_is_too_small_and_how_to_raise_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              limit_blocks: int) -> None:
    project = two_turn_project(tmp_path)
    before = _state(project, capsys)
    assert (project / "project.db").stat().st_size > 16 * 1024  # 16 blocks: less than the database itself

    done = _play_under(limit_blocks, project)
    assert done.returncode == 1, (done.returncode, done.stderr)
    error = done.stderr
    assert "file-size limit (ulimit -f)" in error, error
    assert "`ulimit -f unlimited`" in error, error
    assert "Can't read" not in error and "Traceback" not in error, error
    assert done.stdout == "", done.stdout
    assert _state(project, capsys) == before  # nothing added, nothing lost

    capsys.readouterr()
    assert main(["play", str(project), "Qiqi runs to the beach"]) == 0  # without the limit it plays
