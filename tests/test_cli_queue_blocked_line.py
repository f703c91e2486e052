"""`kamishibai queue`: a job that waits for an interrupted one shows the whole line, the
blocking job's id and the command that goes on (it was cut at 60 characters, in the hint)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core.commands import AddTurn
from studio.core.jobs import Job, JobKind, JobStatus
from studio.storage import Project
from studio.storage.job_store import JobStore


def test_a_blocked_job_names_its_blocker_and_the_way_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    folder = tmp_path / "story"
    with Project.create(folder) as project:
        project.apply(AddTurn(project.tree.root_id, "Mei waves at the station, a long instruction"))
        turn = next(node.id for node in project.tree.nodes.values() if node.id != project.tree.root_id)
        interrupted = Job(id="e93962664a", kind=JobKind.GENERATE, node_id=turn, engine="sketch",
                          status=JobStatus.INTERRUPTED, sequence=1)
        waiting = Job(id="b71c0ffee0", kind=JobKind.GENERATE, node_id=turn, engine="sketch",
                      depends_on=interrupted.id, sequence=2)
        JobStore(project.database).save(interrupted, waiting)
    assert main(["queue", str(folder)]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("b71c0ffee0"))
    assert "waits for interrupted job e93962664a (run-queue --requeue-interrupted)" in line, line
