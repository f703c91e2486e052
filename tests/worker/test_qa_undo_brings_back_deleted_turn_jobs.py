"""Undoing the delete of a turn queues again the jobs the delete cancelled (QA: while the
queue was paused, deleting a turn cancelled its queued jobs at once; Undo brought the turn
back, but its jobs stayed cancelled, so an accidental delete and its undo silently lost
the queued generations). The same for a running queue, which cancels such a job when its
turn comes up: with the jobs cancelled because they waited for it."""

from __future__ import annotations

from collections.abc import Callable

from studio.core.commands import DeleteSubtree
from studio.storage import Project
from studio.storage.job_store import JobStore
from studio.worker import GenerationService, JobStatus
from studio.worker.queue import CASCADE_CANCEL
from studio.worker.runner import NODE_DELETED_BEFORE_MESSAGE

from .conftest import Recorder
from .fake_engine import FakeScript


def _stored(project: Project) -> dict[str, JobStatus]:
    return {job.id: job.status for job in JobStore(project.database).load()}


def test_undoing_a_delete_while_paused_queues_its_jobs_again(
        project: Project, make_service: Callable[..., GenerationService], script: FakeScript,
        recorder: Recorder) -> None:
    service = make_service()
    service.pause()
    service.subscribe(recorder)
    node_id, first = service.generate(project.tree.root_id, "to delete")
    reroll = service.reroll(node_id)
    child_id, child_job = service.generate(node_id, "after it")  # waits for the re-roll
    jobs = [first, reroll, child_job]
    before = {job_id: service.job(job_id) for job_id in jobs}
    project.apply(DeleteSubtree(node_id))
    assert [service.job(job_id).error for job_id in jobs] == [NODE_DELETED_BEFORE_MESSAGE] * 3
    project.undo()
    assert node_id in project.tree.nodes and child_id in project.tree.nodes
    for job_id in jobs:
        job = service.job(job_id)
        assert job.status is JobStatus.QUEUED and job.error == "" and not job.finished_at
        old = before[job_id]
        assert (job.seed, job.sequence, job.priority, job.depends_on) == (old.seed, old.sequence, old.priority,
                                                                          old.depends_on)
        assert recorder.kinds(job_id)[-2:] == ["cancelled", "queued"]
    assert sorted(job.id for job in service.jobs()) == sorted(jobs)  # the queue panel lists them again
    assert all(_stored(project)[job_id] is JobStatus.QUEUED for job_id in jobs)  # stored, not only shown
    service.resume()
    assert service.wait_jobs(jobs, 20)
    assert [service.job(job_id).status for job_id in jobs] == [JobStatus.DONE] * 3
    assert script.order() == ["to delete", "to delete", "after it"]


def test_redo_cancels_them_again_and_a_second_undo_brings_them_back(
        project: Project, make_service: Callable[..., GenerationService], script: FakeScript) -> None:
    service = make_service()
    service.pause()
    node_id, job_id = service.generate(project.tree.root_id, "to delete")
    project.apply(DeleteSubtree(node_id))
    project.undo()
    project.redo()
    assert service.job(job_id).status is JobStatus.CANCELLED
    assert service.job(job_id).error == NODE_DELETED_BEFORE_MESSAGE
    project.undo()
    assert service.job(job_id).status is JobStatus.QUEUED
    service.resume()
    assert service.wait_jobs([job_id], 10)
    assert service.job(job_id).status is JobStatus.DONE


def test_a_job_the_user_cancelled_stays_cancelled(
        project: Project, make_service: Callable[..., GenerationService]) -> None:
    service = make_service()
    service.pause()
    node_id, first = service.generate(project.tree.root_id, "to delete")
    reroll = service.reroll(node_id)
    assert service.cancel(reroll)
    project.apply(DeleteSubtree(node_id))
    project.undo()
    assert service.job(first).status is JobStatus.QUEUED
    assert service.job(reroll).status is JobStatus.CANCELLED
    assert service.job(reroll).error == "Cancelled."


def test_a_job_brought_back_whose_turn_above_was_not_generated_is_not_left_waiting(
        project: Project, make_service: Callable[..., GenerationService]) -> None:
    service = make_service()
    service.pause()
    above, above_job = service.generate(project.tree.root_id, "above")
    below, below_job = service.generate(above, "below")
    assert service.job(below_job).depends_on == above_job
    project.apply(DeleteSubtree(below))
    assert service.cancel(above_job)  # meanwhile: the turn above will not be generated
    project.undo()
    job = service.job(below_job)
    assert job.status is JobStatus.CANCELLED  # not queued for ever behind a cancelled job
    assert job.error.startswith(CASCADE_CANCEL)
    assert _stored(project)[below_job] is JobStatus.CANCELLED


def test_undoing_a_delete_brings_back_the_jobs_a_running_queue_cancelled(
        project: Project, make_service: Callable[..., GenerationService], script: FakeScript,
        recorder: Recorder) -> None:
    service = make_service()
    service.subscribe(recorder)
    _busy_node, busy = service.generate(project.tree.root_id, "busy [block]")
    assert script.started.wait(10)
    node_id, first = service.generate(project.tree.root_id, "to delete")
    child_id, child_job = service.generate(node_id, "after it")
    project.apply(DeleteSubtree(node_id))
    script.release.set()
    assert service.wait_jobs([busy, first, child_job], 10)
    assert service.job(first).error == NODE_DELETED_BEFORE_MESSAGE  # when its turn came up
    assert service.job(child_job).error.startswith(CASCADE_CANCEL)  # it waited for that one
    assert project.document.history.undo_label != DeleteSubtree.label  # the busy turn's take came since
    project.undo()
    assert project.document.history.undo_label == DeleteSubtree.label
    project.undo()
    assert child_id in project.tree.nodes
    assert service.wait_jobs([first, child_job], 20)
    assert [service.job(job_id).status for job_id in (first, child_job)] == [JobStatus.DONE] * 2
    assert recorder.of("queued", first) and recorder.of("queued", child_job)
    assert script.order() == ["busy [block]", "to delete", "after it"]
    assert service.job(child_job).depends_on == first
