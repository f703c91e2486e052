"""`kamishibai queue` shows the waiting jobs of a deleted turn as such.

QA: `queue` opens the project read-only, so it can't cancel the jobs whose turn was deleted
(the next writer does: ``JobQueue``'s ``_cancel_of_deleted_turns``); it listed them as if they
would run, with an empty instruction. They now say that their turn was deleted and that they
are cancelled when the project is next opened for writing; `--json` adds `turn_deleted` (to
every job, true when its turn is gone) and leaves every other key as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.cli.generate_cmds import TURN_DELETED_NOTE
from studio.core.commands import DeleteSubtree
from studio.core.jobs import Job, JobKind, JobStatus
from studio.storage import Project
from studio.storage.job_store import JobStore
from studio.worker.job_queue import DELETED_AFTER_INTERRUPT
from studio.worker.runner import NODE_DELETED_BEFORE_MESSAGE


def _queue(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> str:
    capsys.readouterr()
    assert main(["queue", str(path), *options]) == 0
    return capsys.readouterr().out


@pytest.fixture
def deleted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
            ) -> tuple[Path, str, str, str]:
    return queued_then_deleted(tmp_path, monkeypatch, capsys)


def queued_then_deleted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
                        ) -> tuple[Path, str, str, str]:
    """Two turns queued by `fill`, the second deleted since, plus an interrupted job of a
    deleted third turn: (project, the first turn's job, the second's, the interrupted one)."""
    path = import_demo_project(tmp_path, monkeypatch)
    capsys.readouterr()
    assert main(["fill", str(path), "--json"]) == 0
    first, second = (job["id"] for job in json.loads(capsys.readouterr().out))
    with Project.open(path) as project:
        store = JobStore(project.database)
        leaf = next(job.node_id for job in store.load() if job.id == second)
        assert leaf is not None
        project.apply(DeleteSubtree(leaf))
        store.save(Job(id="1a7e0000aa", kind=JobKind.GENERATE, node_id="gone000000", engine="sketch",
                       status=JobStatus.INTERRUPTED, sequence=99))
    return path, first, second, "1a7e0000aa"


def test_json_marks_them_and_keeps_every_other_key(deleted: tuple[Path, str, str, str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path, first, second, interrupted = deleted
    jobs = {job["id"]: job for job in json.loads(_queue(path, capsys, "--json"))}
    assert set(jobs) == {first, second, interrupted}
    assert [jobs[j]["turn_deleted"] for j in (first, second, interrupted)] == [False, True, True]
    assert jobs[second]["status"] == "queued" and jobs[interrupted]["status"] == "interrupted"  # as before
    assert set(jobs[first]) == set(jobs[second])  # one shape for every job
    assert jobs[first]["instruction"].startswith("Character: Qiqi; Motion: run")


def test_the_listing_says_what_becomes_of_them(deleted: tuple[Path, str, str, str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path, first, second, interrupted = deleted
    lines = {line.split()[0]: line for line in _queue(path, capsys).splitlines()[1:]}
    assert lines[second].endswith(TURN_DELETED_NOTE) and lines[interrupted].endswith(TURN_DELETED_NOTE)
    assert "deleted" not in lines[first] and "Motion: run" in lines[first]


def test_the_next_writer_cancels_them_as_the_listing_said(deleted: tuple[Path, str, str, str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path, first, second, interrupted = deleted
    assert main(["fill", str(path)]) == 0  # opens the project for writing; the first turn is queued already
    jobs = {job["id"]: job for job in json.loads(_queue(path, capsys, "--all", "--json"))}
    assert jobs[first]["status"] == "queued" and not jobs[first]["turn_deleted"]
    assert (jobs[second]["status"], jobs[second]["error"]) == ("cancelled", NODE_DELETED_BEFORE_MESSAGE)
    assert (jobs[interrupted]["status"], jobs[interrupted]["error"]) == ("cancelled", DELETED_AFTER_INTERRUPT)
    assert jobs[second]["turn_deleted"] and jobs[interrupted]["turn_deleted"]  # still true, of a finished job
    lines = {line.split()[0]: line for line in _queue(path, capsys, "--all").splitlines()[1:]}
    assert TURN_DELETED_NOTE not in lines[second] and NODE_DELETED_BEFORE_MESSAGE[:60] in lines[second]
