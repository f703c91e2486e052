"""While the queue is paused, the queued jobs of a deleted turn are cancelled at once, saying
the turn was deleted (a running queue does so as each one's turn comes up): they used to
stay queued, listed as if they would still run, until the queue was resumed."""

from __future__ import annotations

from collections.abc import Callable

from studio.core.commands import DeleteSubtree
from studio.storage import Project
from studio.storage.job_store import JobStore
from studio.worker import GenerationService, JobStatus
from studio.worker.runner import NODE_DELETED_BEFORE_MESSAGE

from .conftest import Recorder
from .fake_engine import FakeScript


def test_a_paused_queue_cancels_a_deleted_turns_jobs_at_once(
        project: Project, make_service: Callable[..., GenerationService], script: FakeScript,
        recorder: Recorder) -> None:
    service = make_service()
    service.pause()
    service.subscribe(recorder)
    node_id, first = service.generate(project.tree.root_id, "to delete")
    child_id, child_job = service.generate(node_id, "after it")  # waits for the first job
    doomed = [first, service.reroll(node_id), child_job]
    kept_node, kept = service.generate(project.tree.root_id, "kept")
    project.apply(DeleteSubtree(node_id))
    for job_id in doomed:  # at once, with no resume
        job = service.job(job_id)
        assert job.status is JobStatus.CANCELLED
        assert job.error == NODE_DELETED_BEFORE_MESSAGE
        assert recorder.of("cancelled", job_id)[0].message == NODE_DELETED_BEFORE_MESSAGE
    assert [job.id for job in service.jobs()] == [kept]
    stored = {job.id: job for job in JobStore(project.database).load()}  # stored, not only shown
    assert [stored[job_id].status for job_id in doomed] == [JobStatus.CANCELLED] * 3
    service.resume()
    assert service.wait_jobs([kept], 10)
    assert service.job(kept).status is JobStatus.DONE
    assert script.order() == ["kept"]
    assert child_id not in project.tree.nodes and kept_node in project.tree.nodes


def test_pausing_cancels_the_jobs_of_a_turn_deleted_while_another_job_ran(
        project: Project, make_service: Callable[..., GenerationService], script: FakeScript) -> None:
    service = make_service()
    _busy_node, busy = service.generate(project.tree.root_id, "busy [block]")
    assert script.started.wait(10)
    node_id, waiting = service.generate(project.tree.root_id, "to delete")
    project.apply(DeleteSubtree(node_id))
    assert service.job(waiting).status is JobStatus.QUEUED  # its turn has not come up yet
    service.pause()
    assert service.job(waiting).status is JobStatus.CANCELLED
    assert service.job(waiting).error == NODE_DELETED_BEFORE_MESSAGE
    script.release.set()
    assert service.wait_jobs([busy], 10)
    assert service.job(busy).status is JobStatus.DONE


def test_a_paused_queue_keeps_the_jobs_of_turns_still_there(
        project: Project, make_service: Callable[..., GenerationService], script: FakeScript) -> None:
    service = make_service()
    service.pause()
    sibling, kept = service.generate(project.tree.root_id, "kept")
    other, _ = service.generate(project.tree.root_id, "deleted")
    project.apply(DeleteSubtree(other))
    assert service.job(kept).status is JobStatus.QUEUED
    service.resume()
    assert service.wait_jobs([kept], 10)
    assert service.job(kept).status is JobStatus.DONE and sibling in project.tree.nodes
