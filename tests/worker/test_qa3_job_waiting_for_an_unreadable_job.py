"""A job row the studio can't read (a kind or status another program or a damaged file left)
is left alone; a job that waits for it must not take it for a job done and forgotten (QA: the
turn below ran at once, from a parent that never got its take, and the queue run said
everything was done). It fails when the project opens, saying why, and the jobs below it
follow it as they follow any failed job."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from studio.core.commands import AddTurn
from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobStatus

from .fake_engine import FakeScript, fake_registry

TEXTS = ("Character: Qiqi; Motion: run; Background: day town",
         "Character: Qiqi; Motion: jump; Background: day town",
         "Character: Qiqi; Motion: sit; Background: day town")


def _service(project: Project, script: FakeScript) -> GenerationService:
    return GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)


@pytest.mark.parametrize(("column", "value"), [("kind", "upscale"), ("status", "paused")])
def test_a_job_waiting_for_an_unreadable_job_fails_instead_of_running(tmp_path: Path, column: str,
                                                                      value: str) -> None:
    script = FakeScript()
    with Project.create(tmp_path / "story") as project:
        folder = project.path
        parent, nodes = project.tree.root_id, []
        for text in TEXTS:
            project.apply(AddTurn(parent, text))
            parent = project.tree.children(parent)[-1].id
            nodes.append(parent)
        service = _service(project, script)
        jobs = [service.reroll(node) for node in nodes]
        assert [service.job(j).depends_on for j in jobs[1:]] == jobs[:2]
        service.stop()
    with sqlite3.connect(folder / "project.db") as conn:  # another program's row
        conn.execute(f"UPDATE jobs SET {column} = ? WHERE id = ?", (value, jobs[0]))
    conn.close()

    with Project.open(folder) as project:
        service = _service(project, script)
        service.start()
        assert service.wait_idle(20)
        second, third = service.job(jobs[1]), service.job(jobs[2])
        service.stop()
        assert second.status is JobStatus.FAILED
        assert jobs[0] in second.error and repr(value) in second.error and "can't be read" in second.error
        assert second.hint
        assert third.status is JobStatus.CANCELLED
        assert script.order("decode") == [], "nothing ran from a turn without a take"
        assert any(jobs[0] in problem and repr(value) in problem for problem in project.problems)
        assert all(not project.tree.takes_of(node) for node in nodes)

    with sqlite3.connect(folder / "project.db") as conn:  # the unreadable row is left as it was
        stored = conn.execute(f"SELECT {column} FROM jobs WHERE id = ?", (jobs[0],)).fetchone()
        statuses = dict(conn.execute("SELECT id, status FROM jobs").fetchall())
    conn.close()
    assert stored == (value,)
    assert (statuses[jobs[1]], statuses[jobs[2]]) == ("failed", "cancelled")
