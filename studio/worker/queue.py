"""Queue rules as pure functions over the jobs by id: what runs next, what a job waits
for, what a failure cancels, and how moving a job renumbers the queue.

The service calls them under its lock and stores what they return.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from enum import Enum

from studio.core.model import now_iso
from studio.worker.jobs import Job, JobStatus, run_order_key

Jobs = Mapping[str, Job]


class Dependency(Enum):
    READY = "ready"
    WAITING = "waiting"
    DOOMED = "doomed"
    """Its dependency failed or was cancelled: the job will be cancelled."""


def dependency(job: Job, jobs: Jobs) -> Dependency:
    """A job waits for the job it ``depends_on`` to be done (a forgotten one counts as done)."""
    if not job.depends_on:
        return Dependency.READY
    parent = jobs.get(job.depends_on)
    if parent is None or parent.status is JobStatus.DONE:
        return Dependency.READY
    if parent.status in (JobStatus.FAILED, JobStatus.CANCELLED):
        return Dependency.DOOMED
    return Dependency.WAITING


def blocked_by(job: Job, jobs: Jobs) -> Job | None:
    """The interrupted job that ``job`` waits for, directly or through queued jobs: it
    won't run until that one is queued again (or cancelled). None if nothing blocks it."""
    seen = {job.id}
    current = job
    while current.depends_on and current.depends_on not in seen:
        parent = jobs.get(current.depends_on)
        if parent is None:
            return None
        if parent.status is JobStatus.INTERRUPTED:
            return parent
        if parent.status is not JobStatus.QUEUED:
            return None
        seen.add(parent.id)
        current = parent
    return None


def queued_in_order(jobs: Jobs, *, without: str = "") -> list[Job]:
    return sorted((j for j in jobs.values() if j.status is JobStatus.QUEUED and j.id != without), key=run_order_key)


def next_runnable(jobs: Jobs, fits: Callable[[Job], bool] | None = None) -> Job | None:
    """The first queued job, by priority then age, whose dependency is done (and that
    ``fits`` the asking device, when given)."""
    for job in queued_in_order(jobs):
        if dependency(job, jobs) is Dependency.READY and (fits is None or fits(job)):
            return job
    return None


def cancel_dependents(ended: Job, jobs: Jobs) -> list[Job]:
    """Cancelled copies of every waiting job that continues from ``ended``, transitively."""
    out: list[Job] = []
    pending = [ended]
    seen = {ended.id}
    while pending:
        parent = pending.pop()
        for job in jobs.values():
            if job.depends_on != parent.id or job.id in seen:
                continue
            if job.status not in (JobStatus.QUEUED, JobStatus.INTERRUPTED):
                continue
            message = (f"Cancelled: the turn it continues from was not generated (that job was "
                       f"{parent.status.value}).")
            cancelled = replace(job, status=JobStatus.CANCELLED, finished_at=now_iso(), error=message)
            seen.add(job.id)
            out.append(cancelled)
            pending.append(cancelled)
    return out


def move_to(jobs: Jobs, job_id: str, index: int) -> list[Job]:
    """The jobs that change when queued ``job_id`` moves to ``index`` of the run order.

    The moved job keeps its priority if it fits between its new neighbours, else takes
    the nearest one that does; queued jobs are then renumbered in the new order, so the
    usual (priority, sequence) order reproduces it.
    """
    job = jobs[job_id]
    order = queued_in_order(jobs, without=job_id)
    index = max(0, min(index, len(order)))
    before = order[index - 1] if index > 0 else None
    after = order[index] if index < len(order) else None
    priority = job.priority
    if after is not None:
        priority = max(priority, after.priority)
    if before is not None:
        priority = min(priority, before.priority)
    new_order = [*order[:index], replace(job, priority=priority), *order[index:]]
    base = min(j.sequence for j in new_order)
    renumbered = [replace(j, sequence=base + i) for i, j in enumerate(new_order)]
    return [j for j in renumbered if j != jobs[j.id]]
