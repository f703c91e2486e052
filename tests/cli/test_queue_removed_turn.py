"""`kamishibai queue --all` says which finished jobs belong to a turn that is no longer in
the story. QA: after a `play` failed (its new turn is then removed: "The new turn was not
kept"), the listing showed the failed job with its node id and error as if the turn were
there. Such a job stays listed (its error says what to fix before playing again), marked as
the window's queue marks it: "(deleted turn)"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from user_limits import block_the_take_folders  # tests/ is on sys.path

from studio.cli import main
from studio.cli.generate_cmds import DELETED_TURN_MARK
from studio.core.commands import DeleteSubtree
from studio.storage import Project


def _listed(project: Path, capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """`queue --all`: its lines by job id, and its --json jobs by id."""
    capsys.readouterr()
    assert main(["queue", str(project), "--all"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:]}
    assert main(["queue", str(project), "--all", "--json"]) == 0
    jobs = {job["id"]: job for job in json.loads(capsys.readouterr().out)}
    return lines, jobs


def _note(line: str, job: dict[str, Any]) -> str:
    """The last column of ``line`` (the job's note), after its node id."""
    return line.split(f"  {job['node']}  ", 1)[1]


def test_a_failed_play_whose_turn_was_not_kept_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "story.kamishibai"
    assert main(["new", str(project)]) == 0
    block_the_take_folders(project)
    assert main(["play", str(project), "Qiqi runs to the beach"]) == 1
    assert "The new turn was not kept" in capsys.readouterr().err

    lines, jobs = _listed(project, capsys)
    (job,) = jobs.values()
    assert job["status"] == "failed" and job["turn_deleted"] is True, job
    note = _note(lines[job["id"]], job)
    assert note.startswith(f"{DELETED_TURN_MARK} Can't write "), lines[job["id"]]  # and why it failed
    assert "media/" in note


def test_only_the_jobs_of_a_deleted_turn_are_marked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A done job of a turn deleted since, and a failed job of a turn still there (a re-roll)."""
    project = tmp_path / "story.kamishibai"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    assert main(["play", str(project), "Qiqi runs to the beach", "Qiqi jumps", "--json"]) == 0
    first, second = (turn["node"] for turn in json.loads(capsys.readouterr().out))
    with Project.open(project) as opened:
        opened.apply(DeleteSubtree(second))
    block_the_take_folders(project)
    assert main(["reroll", str(project), first]) == 1

    lines, jobs = _listed(project, capsys)
    by_node = {(job["node"], job["status"]): job for job in jobs.values()}
    gone, failed, done = by_node[second, "done"], by_node[first, "failed"], by_node[first, "done"]
    assert _note(lines[gone["id"]], gone) == DELETED_TURN_MARK, lines[gone["id"]]
    assert not _note(lines[failed["id"]], failed).startswith(DELETED_TURN_MARK), lines[failed["id"]]
    assert _note(lines[done["id"]], done) == "Qiqi runs to the beach", lines[done["id"]]
    assert [job["turn_deleted"] for job in (gone, failed, done)] == [True, False, False]
