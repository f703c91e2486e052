"""Queue rules as pure functions over the jobs by id: what runs next, what a job waits
for, what a failure cancels, and how moving a job renumbers the queue.

The service calls them under its lock and stores what they return.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from enum import Enum

from studio.core.model import new_id, now_iso
from studio.worker.jobs import Job, JobKind, JobStatus, run_order_key, settings_problem

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


WAITING = (JobStatus.QUEUED, JobStatus.INTERRUPTED)
"""Jobs that have not started (an interrupted one starts again once it is queued again)."""


def dependency_loops(jobs: Jobs) -> dict[str, tuple[str, ...]]:
    """Each waiting job that depends on itself, directly or through other waiting jobs,
    with its loop: its own id, then the ids along ``depends_on`` until it comes back.
    Such a job could never start (only a crafted or damaged project has one)."""
    waiting = {job_id: job for job_id, job in jobs.items() if job.status in WAITING}
    loops: dict[str, tuple[str, ...]] = {}
    visited: set[str] = set()
    for start in waiting:
        path: list[str] = []
        at: dict[str, int] = {}
        current: str | None = start
        while current is not None and current in waiting and current not in visited:
            visited.add(current)
            at[current] = len(path)
            path.append(current)
            current = waiting[current].depends_on
        if current is not None and current in at:  # back to a job of this walk: a loop
            loop = path[at[current]:]
            for index, job_id in enumerate(loop):
                loops[job_id] = (*loop[index:], *loop[:index])
    return loops


def never_runnable(jobs: Jobs, engines: Collection[str] | None = None) -> dict[str, tuple[str, str]]:
    """The waiting generate jobs that could never start, each with (message, hint): stored
    settings that are not names with values, a loop of jobs waiting for one another, or
    (when ``engines`` lists the known ones) an engine the studio does not have."""
    out: dict[str, tuple[str, str]] = {}
    loops = dependency_loops(jobs)
    for job in jobs.values():
        if job.kind is not JobKind.GENERATE or job.status not in WAITING:
            continue
        unreadable = settings_problem(job)
        if engines is not None and job.engine not in engines:
            known = ", ".join(sorted(engines)) or "none"
            out[job.id] = (f"Unknown engine {job.engine!r}: this version of the studio has no such engine.",
                           f"Available engines: {known}. Re-roll the turn with one of them.")
        elif job.id in loops:
            shown = " → ".join((*loops[job.id], job.id))
            out[job.id] = (f"The job depends on itself ({shown}), so it could never start.",
                           "Re-roll the turn to queue it again.")
        elif unreadable:
            out[job.id] = (f"The job's settings can't be read: {unreadable}.",
                           "Retry it to run it with the engine's default settings.")
    return out


def queued_in_order(jobs: Jobs, *, without: str = "") -> list[Job]:
    return sorted((j for j in jobs.values() if j.status is JobStatus.QUEUED and j.id != without), key=run_order_key)


def next_runnable(jobs: Jobs, fits: Callable[[Job], bool] | None = None) -> Job | None:
    """The first queued job, by priority then age, whose dependency is done (and that
    ``fits`` the asking device, when given)."""
    for job in queued_in_order(jobs):
        if dependency(job, jobs) is Dependency.READY and (fits is None or fits(job)):
            return job
    return None


CASCADE_CANCEL = "Cancelled: the turn it continues from was not generated"
"""How a job cancelled by :func:`cancel_dependents` begins its error: :func:`revived_dependents`
brings back those, not a job the user cancelled."""


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
            message = f"{CASCADE_CANCEL} (that job was {parent.status.value})."
            cancelled = replace(job, status=JobStatus.CANCELLED, finished_at=now_iso(), error=message)
            seen.add(job.id)
            out.append(cancelled)
            pending.append(cancelled)
    return out


def revived_dependents(old: Job, new: Job, jobs: Jobs, sequence: int,
                       exists: Callable[[str], bool]) -> list[Job]:
    """New queued copies of the jobs :func:`cancel_dependents` cancelled after ``old`` ended,
    transitively, each waiting for the copy of the job it waited for, the first ones for
    ``new`` (``old``'s retry): retrying a job whose cancel or failure cut a chain short runs
    the rest of the chain again. Each keeps its seed (it never ran) and its place by priority;
    ``sequence`` is the last one given out. A copy is made only of a job whose turn still
    ``exists`` and that was not retried already (by the user, or by an earlier retry of
    ``old``'s chain): the turn would be generated twice."""
    out: list[Job] = []
    retried = {j.retry_of for j in jobs.values() if j.retry_of}  # already queued again: not a second time
    pending = [(old.id, new.id)]
    while pending:
        parent_id, copy_id = pending.pop(0)
        for job in sorted(jobs.values(), key=lambda j: j.sequence):
            if (job.depends_on != parent_id or job.status is not JobStatus.CANCELLED or job.id in retried
                    or not job.error.startswith(CASCADE_CANCEL) or job.node_id is None or not exists(job.node_id)):
                continue
            sequence += 1
            copy = replace(job, id=new_id(), status=JobStatus.QUEUED, sequence=sequence, created_at=now_iso(),
                           started_at="", finished_at="", error="", hint="", take_id="", depends_on=copy_id,
                           retry_of=job.id, progress=0.0, eta_s=None)
            out.append(copy)
            pending.append((job.id, copy.id))
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
