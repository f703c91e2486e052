"""`reroll --branch` says which queued jobs of its turns it cancelled (QA: a Fill queued and not
run yet was cancelled by the branch re-roll, which makes those turns' takes instead, and only
`queue` showed it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.core.jobs import JobStatus
from studio.storage import Project
from studio.storage.job_store import JobStore


def test_reroll_branch_names_the_fill_jobs_it_cancelled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    project = import_demo_project(tmp_path, monkeypatch)  # two turns, no takes yet
    assert main(["fill", str(project), "--json"]) == 0  # queued, not run
    with Project.open(project, read_only=True) as opened:
        filled = [job.id for job in JobStore(opened.database).load()]
    assert len(filled) == 2
    capsys.readouterr()
    assert main(["reroll", str(project), "root", "--branch", "--json"]) == 0
    _out, err = capsys.readouterr()
    assert "cancelled 2 queued jobs of these turns" in err, err
    assert all(job_id in err for job_id in filled), err
    with Project.open(project, read_only=True) as opened:
        jobs = {job.id: job for job in JobStore(opened.database).load()}
    assert all(jobs[job_id].status is JobStatus.CANCELLED for job_id in filled)
