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


def blocked_jobs(jobs: Jobs) -> dict[str, Job]:
    """Every queued job that waits for an interrupted job, directly or through queued jobs (it
    won't run until that one is queued again, or cancelled), as {job id: that interrupted job};
    jobs that nothing blocks are left out. Each job is looked at once: a chain is walked up
    from its first job not yet known, and every job of the walk gets the walk's answer. Asked
    of each job in turn, a branch of n queued turns (Generate missing turns, ``fill``) walked
    n²/2 steps: 4.5 million for 3,000, seconds at each refresh of the window's queue."""
    known: dict[str, Job | None] = {}
    for start in jobs.values():
        if start.status is not JobStatus.QUEUED or start.id in known:
            continue
        walk: dict[str, None] = {}  # the jobs walked, in order (a dict: a quick lookup)
        current, found = start, None
        while True:
            walk[current.id] = None
            parent_id = current.depends_on
            if not parent_id or parent_id in walk:  # no wait, or a loop of waits
                break
            if parent_id in known:
                found = known[parent_id]
                break
            parent = jobs.get(parent_id)
            if parent is None or parent.status not in (JobStatus.QUEUED, JobStatus.INTERRUPTED):
                break
            if parent.status is JobStatus.INTERRUPTED:
                found = parent
                break
            current = parent
        known.update(dict.fromkeys(walk, found))
    return {job_id: blocker for job_id, blocker in known.items() if blocker is not None}


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


def never_runnable(jobs: Jobs, engines: Collection[str] | None = None,
                   unreadable_jobs: Mapping[str, str] | None = None) -> dict[str, tuple[str, str]]:
    """The waiting generate jobs that could never start, each with (message, hint): stored
    settings that are not names with values, a loop of jobs waiting for one another, a wait
    for a job whose row can't be read (``unreadable_jobs``: id to reason; :func:`dependency`
    would take such a job, absent from ``jobs``, for one done and forgotten, and run the
    turn from a parent that has no take), or (when ``engines`` lists the known ones) an
    engine the studio does not have."""
    out: dict[str, tuple[str, str]] = {}
    loops = dependency_loops(jobs)
    unreadable_jobs = unreadable_jobs or {}
    for job in jobs.values():
        if job.kind is not JobKind.GENERATE or job.status not in WAITING:
            continue
        unreadable = settings_problem(job)
        parent_id = job.depends_on or ""
        if parent_id in unreadable_jobs and parent_id not in jobs:
            out[job.id] = (f"The job it waits for, {parent_id}, can't be read ({unreadable_jobs[parent_id]}), so "
                           "the turn above this one may never get its take.",
                           "Generate the turn above it, then retry this job.")
        elif engines is not None and job.engine not in engines:
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


def of_deleted_turns(jobs: Jobs, exists: Callable[[str], bool],
                     statuses: Collection[JobStatus] = (JobStatus.QUEUED,)) -> list[Job]:
    """The generate jobs with a status of ``statuses`` whose turn no longer ``exists`` (it
    was deleted), in run order."""
    return sorted((job for job in jobs.values() if job.kind is JobKind.GENERATE and job.status in statuses
                   and job.node_id is not None and not exists(job.node_id)), key=run_order_key)


def queued_in_order(jobs: Jobs, *, without: str = "") -> list[Job]:
    return sorted((j for j in jobs.values() if j.status is JobStatus.QUEUED and j.id != without), key=run_order_key)


def next_runnable(jobs: Jobs, fits: Callable[[Job], bool] | None = None,
                  held: Callable[[Job], bool] | None = None) -> Job | None:
    """The first queued job, by priority then age, whose dependency is done, that is not
    ``held`` back (when given) and that ``fits`` the asking device (when given)."""
    for job in queued_in_order(jobs):
        if dependency(job, jobs) is Dependency.READY and (held is None or not held(job)) \
                and (fits is None or fits(job)):
            return job
    return None


def running_of_turn(job: Job, jobs: Jobs, running: Collection[str]) -> Job | None:
    """Another generate job of ``job``'s turn that is running here (its id in ``running``),
    if any. A branch re-roll's job waits while there is one: run beside it, whichever ended
    last would be selected, and the old one ending last would make the re-rolled turns below
    stale. A job running in another process is not counted: this one would not hear when it
    ends, and would wait for ever."""
    if job.kind is not JobKind.GENERATE or job.node_id is None:
        return None
    for other_id in running:
        other = jobs.get(other_id)
        if other is not None and other.id != job.id and other.kind is JobKind.GENERATE \
                and other.node_id == job.node_id and other.status is JobStatus.RUNNING:
            return other
    return None


CASCADE_CANCEL = "Cancelled: the turn it continues from was not generated"
"""How a job cancelled by :func:`cancel_dependents` begins its error: :func:`revived_dependents`
brings back those, not a job the user cancelled."""


def rehomed_dependents(ended: Job, jobs: Jobs, has_take: Callable[[str], bool],
                       chained: Callable[[Job], bool]) -> list[Job]:
    """The waiting jobs that wait for ``ended`` (failed or cancelled) but need not go with it,
    each waiting for what it needs now. Such a job waits only because the turn above had
    no take when it was queued; that turn may have one now (made by an earlier job of that
    turn): it waits for nothing; or another job of that turn is still queued or running: it
    waits for the newest one, as a job queued now would. A job ``chained`` to ``ended`` itself
    (a branch re-roll: each turn from its parent's new take) is not moved. Those left are
    cancelled by :func:`cancel_dependents`."""
    turn = ended.node_id
    if ended.kind is not JobKind.GENERATE or turn is None:
        return []
    waiting = [job for job in jobs.values()
               if job.depends_on == ended.id and job.status in WAITING and not chained(job)]
    if not waiting:
        return []
    if has_take(turn):
        return [replace(job, depends_on=None) for job in waiting]
    others = [job for job in jobs.values() if job.kind is JobKind.GENERATE and job.node_id == turn
              and job.id != ended.id and job.status in (JobStatus.QUEUED, JobStatus.RUNNING)]
    if not others:
        return []
    newest = max(others, key=lambda job: job.sequence)
    return [replace(job, depends_on=newest.id) for job in waiting if job.id != newest.id]


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
            ended_how = "failed" if parent.status is JobStatus.FAILED else f"was {parent.status.value}"
            message = f"{CASCADE_CANCEL} (that job {ended_how})."
            cancelled = replace(job, status=JobStatus.CANCELLED, finished_at=now_iso(), error=message)
            seen.add(job.id)
            out.append(cancelled)
            pending.append(cancelled)
    return out


def _retried(jobs: Jobs) -> set[str]:
    """The ids of the jobs that were retried (queued again as a new job)."""
    return {j.retry_of for j in jobs.values() if j.retry_of}


def _cut_off_after(parent_id: str, jobs: Jobs, exists: Callable[[str], bool], retried: Collection[str]) -> list[Job]:
    """The jobs :func:`cancel_dependents` cancelled because job ``parent_id`` ended (those
    that waited for it directly), by age: only those whose turn still ``exists`` and that
    were not ``retried`` (their turn would be generated twice)."""
    return [job for job in sorted(jobs.values(), key=lambda j: j.sequence)
            if job.depends_on == parent_id and job.status is JobStatus.CANCELLED and job.id not in retried
            and job.error.startswith(CASCADE_CANCEL) and job.node_id is not None and exists(job.node_id)]


def revived_dependents(old: Job, new: Job, jobs: Jobs, sequence: int, exists: Callable[[str], bool],
                       superseded: Callable[[Job], bool] = lambda job: False) -> list[Job]:
    """New queued copies of the jobs :func:`cancel_dependents` cancelled after ``old`` ended,
    transitively, each waiting for the copy of the job it waited for, the first ones for
    ``new`` (``old``'s retry): retrying a job whose cancel or failure cut a chain short runs
    the rest of the chain again. Each keeps its seed (it never ran) and its place by priority;
    ``sequence`` is the last one given out. A copy is made only of a job whose turn still
    ``exists`` and that was not retried already (by the user, or by an earlier retry of
    ``old``'s chain): the turn would be generated twice; nor of one ``superseded`` by a branch
    re-roll queued since (:func:`superseded_by`), nor of the jobs after it."""
    out: list[Job] = []
    retried = _retried(jobs)  # already queued again: not a second time
    pending = [(old.id, new.id)]
    while pending:
        parent_id, copy_id = pending.pop(0)
        for job in _cut_off_after(parent_id, jobs, exists, retried):
            if superseded(job):
                continue
            sequence += 1
            copy = replace(job, id=new_id(), status=JobStatus.QUEUED, sequence=sequence, created_at=now_iso(),
                           started_at="", finished_at="", error="", hint="", take_id="", depends_on=copy_id,
                           retry_of=job.id, progress=0.0, eta_s=None)
            out.append(copy)
            pending.append((job.id, copy.id))
    return out


def cancelled_for_turns(jobs: Jobs, node_ids: Collection[str], reason: str, exists: Callable[[str], bool],
                        busy: Collection[str] = ()) -> list[Job]:
    """The generate jobs of the turns ``node_ids`` that were cancelled saying ``reason`` (their
    turn was deleted), whose turn ``exists`` again and that were not retried since, in run
    order; not those still ``busy`` (their end is being recorded)."""
    retried = _retried(jobs)
    return sorted((job for job in jobs.values()
                   if job.kind is JobKind.GENERATE and job.status is JobStatus.CANCELLED and job.error == reason
                   and job.node_id is not None and job.node_id in node_ids
                   and exists(job.node_id) and job.id not in retried
                   and job.id not in busy), key=run_order_key)


def requeued_in_place(roots: Collection[Job], jobs: Jobs, exists: Callable[[str], bool]) -> list[Job]:
    """``roots`` (cancelled jobs) queued again as they were, with the jobs
    :func:`cancel_dependents` cancelled after them, transitively (as :func:`revived_dependents`
    finds them): each keeps its id, seed, place and the job it waits for, so an undone delete
    gives back the queue it took away."""
    retried = _retried(jobs)
    out = [_queued_again(job) for job in roots]
    seen = {job.id for job in out}
    pending = [job.id for job in out]
    while pending:
        for job in _cut_off_after(pending.pop(0), jobs, exists, retried):
            if job.id not in seen:
                seen.add(job.id)
                out.append(_queued_again(job))
                pending.append(job.id)
    return out


def _queued_again(job: Job) -> Job:
    return replace(job, status=JobStatus.QUEUED, started_at="", finished_at="", error="", hint="", take_id="",
                   progress=0.0, eta_s=None)


def replaced_message(new_id: str) -> str:
    """The error of a waiting job that a branch re-roll replaced (see :func:`replaced_by_reroll`)."""
    return f"Cancelled: the branch was re-rolled, and job {new_id} makes this turn's take instead."


def rerolled_message(new_id: str) -> str:
    """The error of an interrupted job that a re-roll of its turn replaced (a take of the turn
    is on its way; run again, the old job would only add another)."""
    return f"Cancelled: the turn was re-rolled, and job {new_id} makes its take instead."


def replaced_by_reroll(jobs: Jobs, new_jobs: Collection[Job], statuses: Collection[JobStatus] = WAITING,
                       message: Callable[[str], str] = replaced_message) -> tuple[list[Job], list[Job]]:
    """What queueing ``new_jobs`` (a branch re-roll: one job per turn) does to the jobs that
    wait to make takes of the same turns (queued or interrupted, not running): they are
    cancelled, as each would add a take the user no longer asked for, made from the turn's old
    past, and select it after the re-roll, making the re-rolled turns below it stale. The jobs
    left that waited for one of them (a turn the re-roll left out) wait for the new job of
    that turn instead. ``statuses``: which waiting jobs are replaced (a single re-roll: only the
    interrupted ones); ``message``: their error, from the new job's id. Returns (cancelled
    copies, moved copies)."""
    by_turn = {job.node_id: job for job in new_jobs if job.node_id is not None}
    new_ids = {job.id for job in new_jobs}
    old = sorted((job for job in jobs.values() if job.kind is JobKind.GENERATE and job.status in statuses
                  and job.status in WAITING and job.node_id in by_turn and job.id not in new_ids), key=run_order_key)
    replaced = {job.id: by_turn[job.node_id or ""] for job in old}
    cancelled = [replace(job, status=JobStatus.CANCELLED, finished_at=now_iso(), take_id="",
                         error=message(replaced[job.id].id), hint="") for job in old]
    moved = [replace(job, depends_on=replaced[job.depends_on].id) for job in jobs.values()
             if job.depends_on in replaced and job.id not in replaced and job.id not in new_ids
             and job.status in WAITING]
    return cancelled, moved


def superseded_by(job: Job, jobs: Jobs, in_branch_reroll: Callable[[Job], bool]) -> Job | None:
    """The job of a branch re-roll (``in_branch_reroll``) queued after ``job`` for the same
    turn that makes, or made, that turn's take instead of it: the newest one that did not fail
    and was not cancelled. None if there is none. Run again (retried, or queued again after an
    interrupt), ``job`` would add a take after that one's and select it, making the re-rolled
    turns below stale: :func:`replaced_by_reroll` cancels the jobs waiting when the re-roll is
    queued, and this finds the one running then (and any replaced job, later)."""
    if job.kind is not JobKind.GENERATE or job.node_id is None:
        return None
    later = [other for other in jobs.values()
             if other.id != job.id and other.kind is JobKind.GENERATE and other.node_id == job.node_id
             and in_branch_reroll(other) and other.status not in (JobStatus.FAILED, JobStatus.CANCELLED)
             and _queued_after(other, job)]
    return max(later, key=_queued_at, default=None)


def _queued_at(job: Job) -> tuple[str, int]:
    """When ``job`` was queued: its creation time, then its number (a move renumbers queued
    jobs, so the number alone can put a later job first)."""
    return job.created_at, job.sequence


def _queued_after(job: Job, other: Job) -> bool:
    return _queued_at(job) > _queued_at(other)


def move_by(jobs: Jobs, job_id: str, steps: int) -> list[Job]:
    """The jobs that change when queued ``job_id`` moves ``steps`` places later in the run
    order (earlier when negative), counted among the jobs queued now: a move decided from an
    older view of the queue (a job started or ended since) still goes past as many jobs as
    the user asked (see :func:`move_to`)."""
    order = queued_in_order(jobs)
    place = next(i for i, job in enumerate(order) if job.id == job_id)
    return move_to(jobs, job_id, place + steps)


def move_to(jobs: Jobs, job_id: str, index: int) -> list[Job]:
    """The jobs that change when queued ``job_id`` moves to ``index`` of the run order.

    The moved job keeps its priority if it fits between its new neighbours, else takes
    the nearest one that does; queued jobs are then renumbered in the new order, so the
    usual (priority, sequence) order reproduces it. They share out their own numbers: a
    number between them may belong to an interrupted job, which would tie with a queued
    one once queued again.
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
    numbers = sorted(j.sequence for j in new_order)
    if len(set(numbers)) < len(numbers):  # already tied (a project from before this rule): fresh numbers
        top = max(j.sequence for j in jobs.values())
        numbers = list(range(top + 1, top + 1 + len(new_order)))
    renumbered = [replace(j, sequence=number) for j, number in zip(new_order, numbers, strict=True)]
    return [j for j in renumbered if j != jobs[j.id]]
