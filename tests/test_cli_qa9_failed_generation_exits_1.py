"""A `play` or `reroll` whose generation failed exited with status 2, the status of a command
used wrongly, while `run-queue` exits with 1 for a failed job: a script could not tell "fix
the command line" from "the work failed". The scheme is now 0 done, 1 the work failed, 2 used
wrongly or refused before doing anything, 130/143 stopped. The real command is run, and a
generation is made to fail by putting a file where the project's take folders go."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from user_limits import block_the_take_folders  # tests/ is on sys.path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


def test_a_failed_play_exits_1_and_a_wrong_one_2(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    block_the_take_folders(project)

    failed = kamishibai("play", str(project), "Qiqi runs to the beach", "--json")
    assert failed.returncode == 1, failed.stderr
    assert json.loads(failed.stdout)["job_status"] == "failed"
    assert "kamishibai: error:" in failed.stderr and "Traceback" not in failed.stderr

    wrong = kamishibai("play", str(project), "Qiqi runs", "--parent", "no-such-turn")
    assert wrong.returncode == 2, wrong.stderr
    assert "No node 'no-such-turn'" in wrong.stderr


def test_a_failed_reroll_exits_1(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    made = kamishibai("play", str(project), "Qiqi runs to the beach", "--json")
    assert made.returncode == 0, made.stderr
    node = json.loads(made.stdout)["node"]
    block_the_take_folders(project)

    failed = kamishibai("reroll", str(project), node, "--json")
    assert failed.returncode == 1, failed.stderr
    assert [turn["job_status"] for turn in json.loads(failed.stdout)] == ["failed"]
    assert "kamishibai: error:" in failed.stderr

    assert kamishibai("reroll", str(project), "root").returncode == 2  # the story's start has no take to re-roll


def test_several_turns_say_which_failed_and_that_the_rest_were_not_tried(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project)).returncode == 0
    block_the_take_folders(project)

    failed = kamishibai("play", str(project), "Qiqi runs", "Qiqi waves", "Qiqi sits")
    assert failed.returncode == 1, failed.stderr
    assert "Turn 1 of 3 was not generated (nor the 2 after it)" in failed.stderr, failed.stderr
