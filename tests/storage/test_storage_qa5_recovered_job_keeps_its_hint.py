"""A job left running by a process that died after its failed take was committed is settled
at the next open from that take: it got the take's error back but not its hint, so the queue
said what went wrong and not what to do about it."""

from __future__ import annotations

from pathlib import Path

from studio.composition import create_project
from studio.core.commands import AddTake, AddTurn
from studio.core.jobs import Job, JobKind, JobStatus
from studio.core.model import Take, TakeStatus
from studio.storage import Project
from studio.storage.job_store import JobStore

DEAD_OWNER = "elsewhere.invalid:12345"


def test_a_recovered_failed_job_gets_its_takes_error_and_hint(tmp_path: Path) -> None:
    project = create_project(tmp_path / "story")
    path = project.path
    project.close()
    with Project.open(path) as opened:
        opened.apply(AddTurn(opened.tree.root_id, "Character: Qiqi; Motion: wave.", node_id="turn1"))
        failed = Take(id="take1", node_id="turn1", engine="sketch", status=TakeStatus.FAILED,
                      error="The engine ran out of memory.", hint="Try a smaller size or fewer frames.")
        opened.apply(AddTake(failed, select=False))
        running = Job(id="job001", kind=JobKind.GENERATE, node_id="turn1", engine="sketch", seed=1,
                      status=JobStatus.RUNNING, take_id="take1", sequence=1, created_at="2026-11-30T10:00:00")
        JobStore(opened.database).save(running, owner=DEAD_OWNER)  # its process died before saying it failed
    with Project.open(path) as reopened:
        store = JobStore(reopened.database)
        recovered = store.recover()
        assert [job.id for job in recovered.settled] == ["job001"]
        [settled] = recovered.settled
        assert settled.status is JobStatus.FAILED
        assert settled.error == "The engine ran out of memory."
        assert settled.hint == "Try a smaller size or fewer frames."
        stored = store.get("job001")
        assert stored is not None and stored.hint == "Try a smaller size or fewer frames."
