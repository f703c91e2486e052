"""Exporting a branch whose last turn has no take yet: the hint says what is happening to that
turn and names the command that helps, typed as printed. QA: "turn 6 ... has no take, not a
finished clip. hint: Generate it (or select a finished take)" named no command, and said
nothing of a job that was making the take already."""

from __future__ import annotations

import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

from .helpers import Fixture, add_turn


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)


def _turn_without_take(story: Fixture) -> tuple[Path, str]:
    leaf = add_turn(story.project, story.leaf, "Character: Qiqi; Motion: run; Background: day town.", (0, 0, 0),
                    with_take=False)
    path = story.project.path
    story.project.close()
    return path, leaf


def _export(project: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return _kamishibai("export", str(project), "--out", str(out), "-q")


def _commands(stderr: str) -> list[list[str]]:
    hint = next(line for line in stderr.splitlines() if line.lstrip().startswith("hint:"))
    return [shlex.split(part) for part in hint.split("`")[1::2] if part.startswith("kamishibai ")]


def test_no_job_names_reroll(story: Fixture, tmp_path: Path) -> None:
    project, leaf = _turn_without_take(story)
    out = tmp_path / "e.srt"
    refused = _export(project, out)
    assert refused.returncode != 0
    assert "turn 4" in refused.stderr and "has no take" in refused.stderr, refused.stderr
    assert "Generate it (or select" not in refused.stderr
    commands = _commands(refused.stderr)
    assert commands and commands[0] == ["kamishibai", "reroll", str(project), leaf], refused.stderr
    for command in commands:
        assert _kamishibai(*command[1:]).returncode == 0, command
    assert _export(project, out).returncode == 0 and out.stat().st_size > 0


def test_a_queued_job_is_said(story: Fixture, tmp_path: Path) -> None:
    project, _leaf = _turn_without_take(story)
    assert _kamishibai("fill", str(project)).returncode == 0  # queues the turn's take, runs nothing
    refused = _export(project, tmp_path / "e.srt")
    assert refused.returncode != 0
    assert "its generation is queued" in refused.stderr, refused.stderr
    assert "kamishibai reroll" not in refused.stderr  # it would make a second take


def test_an_interrupted_job_names_run_queue(story: Fixture, tmp_path: Path) -> None:
    project, _leaf = _turn_without_take(story)
    assert _kamishibai("fill", str(project)).returncode == 0
    with sqlite3.connect(project / "project.db") as db:  # as a studio killed while generating leaves it
        assert db.execute("UPDATE jobs SET status = 'interrupted' WHERE status = 'queued'").rowcount == 1
    db.close()
    out = tmp_path / "e.srt"
    refused = _export(project, out)
    assert refused.returncode != 0
    assert "its generation was interrupted" in refused.stderr, refused.stderr
    [command] = _commands(refused.stderr)
    assert command == ["kamishibai", "run-queue", str(project), "--requeue-interrupted"], refused.stderr
    assert _kamishibai(*command[1:], "-q").returncode == 0
    assert _export(project, out).returncode == 0 and out.stat().st_size > 0
