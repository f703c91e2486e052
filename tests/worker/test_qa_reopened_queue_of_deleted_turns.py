"""A project opened again whose queue holds jobs of turns deleted since (no undo brings them
back now) cancels them when the queue is opened, each saying its turn was deleted: they
were listed as queued, and an interrupted one kept `run-queue` exiting 1 with a hint to run
it again, only for it to be cancelled then."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import DeleteSubtree
from studio.storage import Project
from studio.storage.job_store import JobStore
from studio.worker import GenerationService, HostMode, JobStatus
from studio.worker.job_queue import DELETED_AFTER_INTERRUPT
from studio.worker.runner import NODE_DELETED_BEFORE_MESSAGE

from .fake_engine import FakeScript, fake_registry


def _service(project: Project, script: FakeScript) -> GenerationService:
    return GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)


def test_jobs_of_turns_deleted_since_are_cancelled_when_the_queue_opens(tmp_path: Path) -> None:
    script = FakeScript()
    folder = tmp_path / "story"
    with Project.create(folder) as project:
        service = _service(project, script)
        root = project.tree.root_id
        interrupted_node, interrupted = service.generate(root, "stopped [block]")
        service.start()
        assert script.started.wait(10)
        assert service.stop(interrupt_running=True, timeout=10)
        assert service.job(interrupted).status is JobStatus.INTERRUPTED
        deleted_node, first = service.generate(root, "deleted")
        _child, second = service.generate(deleted_node, "deleted too")  # waits for the first
        kept_node, kept = service.generate(root, "kept")
        service.writer.detach()
    with Project.open(folder) as project:  # deleted with no queue open (another session's undo history)
        project.apply(DeleteSubtree(deleted_node))
        project.apply(DeleteSubtree(interrupted_node))

    with Project.open(folder) as project:
        service = _service(project, script)
        try:
            for job_id in (first, second):
                assert service.job(job_id).status is JobStatus.CANCELLED
                assert service.job(job_id).error == NODE_DELETED_BEFORE_MESSAGE
            assert service.job(interrupted).status is JobStatus.CANCELLED
            assert service.job(interrupted).error == DELETED_AFTER_INTERRUPT
            assert [job.id for job in service.jobs()] == [kept]
            # not reported as failed, nor as cut off by a failed or cancelled job
            assert service.failed_at_start() == [] and service.cancelled_at_start() == []
            stored = {job.id: job.status for job in JobStore(project.database).load()}
            assert [stored[j] for j in (first, second, interrupted)] == [JobStatus.CANCELLED] * 3
            service.start()
            assert service.wait_idle(10)
            assert service.job(kept).status is JobStatus.DONE and kept_node in project.tree.nodes
        finally:
            service.stop()


def test_a_read_only_look_at_the_queue_changes_nothing(tmp_path: Path) -> None:
    script = FakeScript()
    folder = tmp_path / "story"
    with Project.create(folder) as project:
        service = _service(project, script)
        node_id, job_id = service.generate(project.tree.root_id, "deleted")
        service.writer.detach()
    with Project.open(folder) as project:
        project.apply(DeleteSubtree(node_id))
    with Project.open(folder, read_only=True) as project:
        service = _service(project, script)
        assert service.job(job_id).status is JobStatus.QUEUED
        service.stop()
    with Project.open(folder) as project:
        assert {job.id: job.status for job in JobStore(project.database).load()} == {job_id: JobStatus.QUEUED}
