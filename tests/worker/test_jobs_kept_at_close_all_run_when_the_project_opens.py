"""Jobs kept for next time at close all run when the project opens again.

Closing with "Keep them for next time" pauses the queue, waits for the writer, notes the
running job, stops the worker (the running job is interrupted) and queues that job again. A
job the worker had chosen a moment before the pause, but not yet claimed, was claimed after
it: it ran unnoted, the stop interrupted it, and it stayed interrupted when the project
opened again, the jobs after it blocked behind it ("0 running · 0 queued · 6 blocked · 1
interrupted"). A paused or stopping queue now starts no job it had chosen before."""

from __future__ import annotations

import threading
from pathlib import Path

from studio.core.model import Location
from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobStatus

from .fake_engine import FakeScript, fake_registry

ROUNDS = 10


def _service(project: Project, script: FakeScript) -> GenerationService:
    return GenerationService(project, fake_registry(script, "fake"), default_engine="fake",
                             hosts=HostMode.IN_PROCESS)


def _close_keeping_jobs_as_the_next_job_is_chosen(folder: Path) -> tuple[list[str], list[str]]:
    """Queue a chain of three turns, close as the window does (keep) at the moment the worker
    has chosen the second job; returns the job ids and those the close noted as running."""
    script = FakeScript(step_sleep=0.02)
    project = Project.create(folder, locations=[Location(id="loc1", name="Town")])
    service = _service(project, script)
    queue = service._queue
    real_claim = queue.claim
    chosen, closing = threading.Event(), threading.Event()
    ids: list[str] = []

    def claim(job, claimer):  # type: ignore[no-untyped-def]
        if len(ids) == 3 and job.id == ids[1] and not chosen.is_set():
            chosen.set()  # the worker chose the second job: the close comes now
            assert closing.wait(30)
        return real_claim(job, claimer)

    queue.claim = claim  # type: ignore[method-assign]
    kept: list[str] = []
    try:
        first, job1 = service.generate(project.tree.root_id, "Qiqi runs")
        second, job2 = service.generate(first, "Qiqi jumps")
        _, job3 = service.generate(second, "Qiqi waves")
        ids.extend([job1, job2, job3])
        service.start()
        assert chosen.wait(60), "the worker never came to the second job"
        # what ProjectSession.close("keep") does, on the window's thread
        service.pause()
        service.writer.call(lambda: None)
        kept = [job.id for job in service.jobs() if job.status is JobStatus.RUNNING]
        closing.set()
        assert service.stop(interrupt_running=True, timeout=30)
        service.requeue_interrupted(only=kept)
    finally:
        closing.set()
        service.stop(cancel_running=True, timeout=10)
        project.close()
    return ids, kept


def test_every_kept_job_runs_when_the_project_opens_again(tmp_path: Path) -> None:
    for round_ in range(ROUNDS):
        folder = tmp_path / f"story{round_}"
        ids, kept = _close_keeping_jobs_as_the_next_job_is_chosen(folder)
        assert kept == [], "the first job was done and the second not started when the close paused"
        project = Project.open(folder)
        service = _service(project, FakeScript())
        try:
            statuses = {job.id: job.status for job in service.jobs(include_finished=True)}
            assert statuses == {ids[0]: JobStatus.DONE, ids[1]: JobStatus.QUEUED, ids[2]: JobStatus.QUEUED}, (
                f"round {round_}: no job may start once the queue is paused for the close")
            assert service.blocked() == {}
            service.start()
            assert service.wait_jobs(ids, 60)
            assert [service.job(job_id).status for job_id in ids] == [JobStatus.DONE] * 3, round_
        finally:
            service.stop(cancel_running=True, timeout=10)
            project.close()
