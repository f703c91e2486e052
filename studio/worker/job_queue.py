"""The queue's state: every job of the project by id, kept in memory and in the database.

Rules (threads):
- Every database write runs on the writer thread (``writer.call``). Nothing waits for the
  writer while holding :attr:`JobQueue.cond`, so the writer may take it.
- ``cond`` guards the jobs by id, the flags and the running set; device threads wait on it.
- Readers get :meth:`jobs`, a tuple published after every change: no lock, no waiting.
- Events are published after ``cond`` is released, so a subscriber may call back in.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import replace
from typing import Any

from studio.core.errors import StudioError
from studio.core.model import TakeStatus, now_iso
from studio.storage.job_store import CLOSED_MESSAGE, JobStore
from studio.storage.project import Project
from studio.worker import queue
from studio.worker.event_bus import EventBus
from studio.worker.events import EventKind, JobEvent
from studio.worker.jobs import Job, JobKind, JobStatus, display_order, run_order_key
from studio.worker.runner import NODE_DELETED_BEFORE_MESSAGE, REROLL_BRANCH_LABEL
from studio.worker.writer import Writer

log = logging.getLogger(__name__)

MAX_HOST_LOSSES = 3
"""A job whose host dies under it this many times fails rather than going back again."""

DELETED_AFTER_INTERRUPT = "The turn was deleted after its job was interrupted; nothing was kept."
"""An interrupted job whose turn is gone when the queue is opened again."""

RETRYABLE = (JobStatus.FAILED, JobStatus.CANCELLED, JobStatus.INTERRUPTED)
"""The jobs that can be retried (as a new job)."""


PROGRESS_STORE_S = 2.0
"""How often, at most, a running job's progress is written to the database, for another
process (`kamishibai queue`) to read: a job shorter than this writes none (its start and end
say enough), a long one costs one small write per interval."""


PRIORITY_LIMIT = 2**63
"""A priority is stored as an SQLite integer (64 bits, signed)."""


def check_priority(priority: object) -> int:
    """``priority`` as an int, or :class:`StudioError`: a whole number SQLite can store (a
    larger one failed deep in the database with an OverflowError)."""
    if isinstance(priority, bool) or not isinstance(priority, int):
        raise StudioError(f"A job's priority is a whole number, not {priority!r}.")
    if not -PRIORITY_LIMIT <= priority < PRIORITY_LIMIT:
        raise StudioError(f"The priority {priority} is out of range; a job's priority is from "
                          f"{-PRIORITY_LIMIT:,} to {PRIORITY_LIMIT - 1:,}.", hint="Higher runs first; 0 is the usual.")
    return priority


class JobQueue:
    def __init__(self, project: Project, writer: Writer, bus: EventBus) -> None:
        self.project = project
        self.writer = writer
        self.bus = bus
        self.cond = threading.Condition(threading.RLock())
        self._store = JobStore(project.database)
        self._jobs: dict[str, Job] = {}
        self._published: tuple[Job, ...] = ()
        self._sequence = 0
        self.paused = False
        self.stopping = False
        self.running: set[str] = set()
        self.cancel_requested: set[str] = set()
        self.interrupt_requested: set[str] = set()
        self.interrupt_reason = ""
        """What an interrupted job's error says when whoever stopped it said why ("Stopped by Ctrl+C.");
        empty: :data:`CLOSED_MESSAGE`, the studio stopped it as it closed (a crash is told
        apart when the job is recovered: :func:`~studio.storage.job_store.stopped_message`)."""
        self.results: dict[str, Any] = {}
        self.runners: dict[str, str] = {}
        """Where each job claimed by this process runs (its device, or the render farm's node
        and actor), while it runs here; stored with the job too (``JobStore.places``)."""
        self._progress_due: dict[str, float] = {}
        """When each running job's progress is next written to the database (monotonic s)."""
        self.host_losses: dict[str, int] = {}
        """How often each job's host was lost under it (see :meth:`put_back`)."""
        self.replaced: dict[str, list[str]] = {}
        """In this session: the jobs each branch re-roll job replaced (see :meth:`replace_waiting`)."""
        self._unannounced: set[str] = set()
        """Jobs queued whose QUEUED event is not published yet: no worker starts them until it
        is (:meth:`_announce`), or a subscriber could hear of a job's start before its queueing."""
        self.settled_at_start: list[Job] = []
        """The jobs :meth:`recover` failed because they could never start, and those it
        cancelled because they waited for a failed or cancelled job."""
        self.deleted_at_start: list[Job] = []
        """The waiting jobs :meth:`recover` cancelled because their turn was deleted since they
        were queued (each one's ``error`` says so); not in :attr:`settled_at_start`."""

    # -- reading (any thread, no lock) ------------------------------------------------------

    def jobs(self, include_finished: bool = False) -> list[Job]:
        """The queue in display order, as of the last change."""
        return display_order([j for j in self._published if include_finished or not j.finished])

    def get(self, job_id: str) -> Job | None:
        with self.cond:
            return self._jobs.get(job_id)

    def job(self, job_id: str) -> Job:
        job = self.get(job_id)
        if job is None:
            raise StudioError(f"No job {job_id!r} in this project's queue.")
        return job

    def table(self) -> dict[str, Job]:
        """The jobs by id (call with ``cond`` held)."""
        return self._jobs

    def _publish_table(self) -> None:
        self._published = tuple(self._jobs.values())

    def publish(self, events: Iterable[JobEvent]) -> None:
        for event in events:
            self.bus.publish(event)

    def _hold(self, jobs: Iterable[Job]) -> None:
        """Keep ``jobs`` from being started until :meth:`_announce` (with ``cond`` held)."""
        self._unannounced.update(job.id for job in jobs)

    def _announce(self, events: list[JobEvent]) -> None:
        """Publish ``events`` (outside ``cond``: a subscriber may call back in), then let a
        worker start the jobs :meth:`_hold` kept back."""
        try:
            self.publish(events)
        finally:
            with self.cond:
                self._unannounced.difference_update(e.job.id for e in events)
                self.cond.notify_all()

    # -- start-up ---------------------------------------------------------------------------

    def recover(self, engines: Collection[str] | None = None) -> None:
        """Settle the jobs of a dead process from the database (see :meth:`JobStore.recover`),
        and fail the waiting jobs that could never start (see :func:`queue.never_runnable`;
        ``engines``: the engine names the studio has), with the jobs that wait for them."""
        self.publish(self.writer.call(lambda: self._recover(engines)))

    def _recover(self, engines: Collection[str] | None) -> list[JobEvent]:
        if not self.project.read_only:
            recovered = self._store.recover(lambda take_id: self.project.remove_take_media(take_id))
            for problem in recovered.problems:
                log.warning("job recovery: %s", problem)
            self.project.problems.extend(recovered.problems)
        with self.cond:
            self._jobs = {job.id: job for job in self._store.load()}
            for job_id, reason in self._store.unreadable.items():
                problem = f"job {job_id} can't be read and was left as it is: {reason}"
                log.warning("job recovery: %s", problem)
                self.project.problems.append(problem)
            self._sequence = max((job.sequence for job in self._jobs.values()), default=0)
            writable = not self.project.read_only
            # a turn deleted since (no undo brings it back now): its jobs could never run
            deleted = self._cancel_of_deleted_turns(queue.WAITING) if writable else []
            events = self._fail_never_runnable(engines) if writable else []
            for job in self._jobs.values():  # a retry or a run reads them as names with values
                if not isinstance(job.settings, Mapping):
                    self._jobs[job.id] = replace(job, settings={})
            events = self._cascade_all([*deleted, *events, *self._follow_retries()]) if writable else []
            self.settled_at_start = self.settled_at_start[len(deleted):]  # not failed, nor cut off by a failure
            self.deleted_at_start = [event.job for event in deleted]
            self._publish_table()
        return events

    def _follow_retries(self) -> list[JobEvent]:
        """Point (in memory) each waiting job whose job failed or was cancelled but was then
        retried at that retry (the newest, following retries of retries). Projects written
        before a retry moved the waiting jobs itself have such jobs: they would be cancelled
        with a turn that is being generated again."""
        retries: dict[str, Job] = {}
        for job in sorted(self._jobs.values(), key=lambda j: j.sequence):
            if job.retry_of:
                retries[job.retry_of] = job  # the newest retry wins
        events: list[JobEvent] = []
        for job in list(self._jobs.values()):
            parent = self._jobs.get(job.depends_on or "")
            if job.status not in queue.WAITING or parent is None or parent.id not in retries \
                    or parent.status not in (JobStatus.FAILED, JobStatus.CANCELLED):
                continue
            target, seen = parent, {job.id}
            while target.id in retries and target.status in (JobStatus.FAILED, JobStatus.CANCELLED) \
                    and target.id not in seen:
                seen.add(target.id)
                target = retries[target.id]
            if target.id in seen:  # a loop of retries (a crafted project): left to be cancelled
                continue
            moved = replace(job, depends_on=target.id)
            self._jobs[job.id] = moved
            events.append(JobEvent(EventKind.UPDATED, moved))
            log.info("job %s now waits for job %s, the retry of job %s", job.id, target.id, parent.id)
        return events

    def _fail_never_runnable(self, engines: Collection[str] | None) -> list[JobEvent]:
        """Fail (in memory) the waiting jobs that could never start: otherwise they would
        stay queued for ever, and a queue run would end as if it had nothing to do."""
        events: list[JobEvent] = []
        failures = queue.never_runnable(self._jobs, engines, self._store.unreadable)
        for job_id in sorted(failures, key=lambda j: run_order_key(self._jobs[j])):
            message, hint = failures[job_id]
            job = self._jobs[job_id]
            failed = replace(job, status=JobStatus.FAILED, finished_at=now_iso(), error=message, hint=hint,
                             take_id="", settings=job.settings if isinstance(job.settings, Mapping) else {})
            self._jobs[job_id] = failed
            events.append(JobEvent(EventKind.FAILED, failed, message=message, hint=hint))
            log.info("job %s failed: %s", job_id, message)
            self.project.problems.append(f"job {job_id} failed: {message}")
        return events

    def _cascade_all(self, failed: list[JobEvent]) -> list[JobEvent]:
        """``failed`` and the jobs cancelled because they wait for a failed or cancelled
        job, stored."""
        events = list(failed)
        for job in list(self._jobs.values()):
            if job.status in (JobStatus.FAILED, JobStatus.CANCELLED):
                events.extend(self._dependents_cancelled(job))
        if events:
            self._store.save_all(e.job for e in events)
        self.settled_at_start = [e.job for e in events]
        return events

    # -- changes (each one runs on the writer thread) ---------------------------------------

    def _save(self, jobs: list[Job], *, durable: bool = True) -> None:
        """Store first, then count: a job the database refused is not in the queue.
        On the writer thread, with ``cond`` held. ``durable=False`` only for a job's end,
        after its take was committed (see storage.job_store)."""
        self._store.save_all(jobs, durable=durable)
        for job in jobs:
            self._jobs[job.id] = job
        self._publish_table()
        self.cond.notify_all()

    def enqueue(self, jobs: list[Job], also_save: Iterable[Job] = (), before: Callable[[], None] | None = None
                ) -> list[Job]:
        """Number and store ``jobs`` as queued; ``before`` runs first in the same writer
        operation (a document command the jobs belong to). Returns the stored jobs."""
        saved = list(also_save)

        def operation() -> list[Job]:
            if before is not None:
                before()
            if not jobs:
                return []
            with self.cond:
                numbered = []
                for job in jobs:
                    self._sequence += 1
                    numbered.append(replace(job, sequence=self._sequence, status=JobStatus.QUEUED))
                self._hold(numbered)
                self._save([*numbered, *saved])
            return numbered

        numbered = self.writer.call(operation)
        self._announce([JobEvent(EventKind.QUEUED, job) for job in numbered])
        return numbered

    def cancel(self, job_id: str) -> bool:
        """Cancel a queued or interrupted job now, or ask a running one to stop."""
        def operation() -> tuple[bool, list[JobEvent]]:
            with self.cond:
                job = self._jobs.get(job_id)
                if job is None:
                    raise StudioError(f"No job {job_id!r} in this project's queue.")
                if job.status is JobStatus.RUNNING:
                    if job_id not in self.running:
                        return False, []  # run by another process
                    self.cancel_requested.add(job_id)
                    return True, []
                if job.status not in (JobStatus.QUEUED, JobStatus.INTERRUPTED):
                    return False, []
                cancelled = replace(job, status=JobStatus.CANCELLED, finished_at=now_iso(), error="Cancelled.",
                                    take_id="")
                cascade = self._dependents_cancelled(cancelled)
                self._save([cancelled, *(e.job for e in cascade)])
            return True, [JobEvent(EventKind.CANCELLED, cancelled, message="Cancelled."), *cascade]

        done, events = self.writer.call(operation)
        self.publish(events)
        return done

    def cancel_deleted_turns(self) -> list[Job]:
        """Cancel every queued generate job whose turn was deleted (and the jobs that wait
        for them), saying so. A running queue does this as each one's turn comes up; a
        paused one calls this when a turn is deleted (or when it pauses), so that such jobs
        do not sit in the queue as if they would still run. Returns the jobs cancelled."""
        with self.cond:  # the usual case, nothing to cancel: no trip to the writer
            if not queue.of_deleted_turns(self._jobs, self._has_turn):
                return []

        def change() -> list[JobEvent]:
            gone = self._cancel_of_deleted_turns((JobStatus.QUEUED,))
            return [*gone, *(cascade for e in gone for cascade in self._dependents_cancelled(e.job))]

        events = self.writer.call(lambda: self._stored(change))
        self.publish(events)
        return [e.job for e in events]

    def _stored(self, change: Callable[[], list[JobEvent]]) -> list[JobEvent]:
        """``change`` the jobs in memory (on the writer, ``cond`` held here) and save the jobs
        its events carry; if either fails, every job is put back as it was (not stored, so
        not changed)."""
        with self.cond:
            before = dict(self._jobs)
            try:
                events = change()
                self._save([e.job for e in events])
            except BaseException:
                self._jobs.clear()
                self._jobs.update(before)
                self._publish_table()
                raise
            return events

    def _has_turn(self, node_id: str) -> bool:
        return node_id in self.project.tree.nodes

    def _cancel_of_deleted_turns(self, statuses: Collection[JobStatus]) -> list[JobEvent]:
        """Cancel (in memory, with ``cond`` held) the generate jobs of ``statuses`` whose turn
        is gone, each saying so. All of them first: a job of a deleted turn that waits for
        another one says its turn was deleted, not that the turn above was not generated."""
        events: list[JobEvent] = []
        for job in queue.of_deleted_turns(self._jobs, self._has_turn, statuses):
            message = NODE_DELETED_BEFORE_MESSAGE if job.status is JobStatus.QUEUED else DELETED_AFTER_INTERRUPT
            cancelled = replace(job, status=JobStatus.CANCELLED, finished_at=now_iso(), error=message, hint="",
                                take_id="")
            self._jobs[job.id] = cancelled
            events.append(JobEvent(EventKind.CANCELLED, cancelled, message=message))
        return events

    def requeue_restored_turns(self, node_ids: Collection[str]) -> list[Job]:
        """Queue again the generate jobs of the turns ``node_ids`` that were cancelled because
        the turn was deleted (:data:`NODE_DELETED_BEFORE_MESSAGE`, paused or when its turn came
        up), now that the turn is back (an undone delete), with the jobs that were cancelled
        because they waited for them. Each keeps its id, seed and place. One that waits for a
        job that failed or was cancelled meanwhile goes as it would have then
        (:meth:`_dependents_cancelled`). Returns the jobs queued again."""
        with self.cond:  # the usual case (a new turn): nothing to bring back, no trip to the writer
            if not self._restorable(node_ids):
                return []

        def operation() -> list[JobEvent]:
            with self.cond:
                events = self._stored(lambda: self._requeue_restored(node_ids))
                self._hold(e.job for e in events if e.kind is EventKind.QUEUED)
                return events

        events = self.writer.call(operation)
        self._announce(events)
        return [e.job for e in events if e.kind is EventKind.QUEUED]

    def _restorable(self, node_ids: Collection[str]) -> list[Job]:
        """With ``cond`` held: the jobs :meth:`requeue_restored_turns` brings back first (not one
        still running here: its end is being recorded, and the runner asks again after it)."""
        return queue.cancelled_for_turns(self._jobs, node_ids, NODE_DELETED_BEFORE_MESSAGE, self._has_turn,
                                         self.running)

    def _requeue_restored(self, node_ids: Collection[str]) -> list[JobEvent]:
        """In memory, with ``cond`` held: see :meth:`requeue_restored_turns`. One event per job
        changed: QUEUED (the queue panel lists it again), or CANCELLED for one cut off again."""
        requeued = queue.requeued_in_place(self._restorable(node_ids), self._jobs, self._has_turn)
        for job in requeued:
            self._jobs[job.id] = job
        doomed = {job.depends_on: self._jobs[job.depends_on] for job in requeued
                  if queue.dependency(job, self._jobs) is queue.Dependency.DOOMED and job.depends_on}
        changed = {job.id: job for job in requeued}
        for parent in doomed.values():
            changed.update((e.job.id, e.job) for e in self._dependents_cancelled(parent))
        return [JobEvent(EventKind.QUEUED, job) if job.status is JobStatus.QUEUED
                else JobEvent(EventKind.CANCELLED, job, message=job.error) for job in changed.values()]

    def move(self, job_id: str, index: int) -> None:
        """Move queued ``job_id`` to ``index`` of the run order as it is when the writer gets
        to it (see :meth:`move_by` for a move the user makes from what a view showed)."""
        self._move(job_id, lambda: queue.move_to(self._jobs, job_id, index))

    def move_by(self, job_id: str, steps: int) -> None:
        """Move queued ``job_id`` ``steps`` places later (earlier when negative), counted on
        the writer among the jobs queued then: a job that started, ended or moved since the
        caller looked does not make it land a place off."""
        if isinstance(steps, bool) or not isinstance(steps, int):
            raise StudioError(f"A job moves by a whole number of places, not {steps!r}.")
        self._move(job_id, lambda: queue.move_by(self._jobs, job_id, steps))

    def _move(self, job_id: str, moved: Callable[[], list[Job]]) -> None:
        def operation() -> Job:
            with self.cond:
                self._queued(job_id)
                changed = moved()
                self._save(changed)
                self._sequence = max([self._sequence, *(job.sequence for job in changed)])
                return self._jobs[job_id]

        self.bus.publish(JobEvent(EventKind.UPDATED, self.writer.call(operation)))

    def replace_waiting(self, new_ids: Collection[str], statuses: Collection[JobStatus] = queue.WAITING,
                        message: Callable[[str], str] = queue.replaced_message) -> list[Job]:
        """The jobs ``new_ids`` (just queued by a branch re-roll, one per turn) replace the
        jobs still waiting to make takes of the same turns: those are cancelled, saying so,
        and a job of another turn that waited for one of them waits for its replacement
        (:func:`queue.replaced_by_reroll`). ``statuses``: which waiting jobs are replaced.
        Returns the jobs cancelled."""
        def change() -> list[JobEvent]:
            new_jobs = [self._jobs[job_id] for job_id in new_ids if job_id in self._jobs]
            cancelled, moved = queue.replaced_by_reroll(self._jobs, new_jobs, statuses, message)
            for job in [*cancelled, *moved]:
                self._jobs[job.id] = job
            return [*(JobEvent(EventKind.CANCELLED, job, message=job.error) for job in cancelled),
                    *(JobEvent(EventKind.UPDATED, job) for job in moved)]

        events = self.writer.call(lambda: self._stored(change))
        self.publish(events)
        gone = [e.job for e in events if e.kind is EventKind.CANCELLED]
        for job in gone:
            log.info("job %s: %s", job.id, job.error)
        with self.cond:
            for new_id in new_ids:
                turn = self._jobs[new_id].node_id if new_id in self._jobs else None
                self.replaced[new_id] = [job.id for job in gone if job.node_id == turn]
        return gone

    def set_priority(self, job_id: str, priority: int) -> None:
        priority = check_priority(priority)

        def operation() -> Job:
            with self.cond:
                job = self._jobs.get(job_id)
                if job is None or job.status not in (JobStatus.QUEUED, JobStatus.INTERRUPTED):
                    raise StudioError(f"Job {job_id} is not waiting in the queue.")
                job = replace(job, priority=priority)
                self._save([job])
                return job

        self.bus.publish(JobEvent(EventKind.UPDATED, self.writer.call(operation)))

    def enqueue_retry(self, job: Job, old_id: str) -> tuple[Job, list[Job]]:
        """Queue ``job``, the retry of job ``old_id``, in one writer operation and one
        transaction: an interrupted ``old_id`` is cancelled (replaced), every job that
        waited for it now waits for ``job``, and the jobs its end cancelled are queued again
        after ``job`` (:func:`~studio.worker.queue.revived_dependents`), so a chain resumes in
        order. Returns the stored job and the waiting jobs moved to it."""
        def operation() -> tuple[Job, list[Job], list[Job]]:
            with self.cond:
                old = self._jobs.get(old_id)
                if old is None or old.status not in RETRYABLE:
                    state = "no longer in the queue" if old is None else old.status.value
                    raise StudioError(f"Job {old_id} is {state}; only failed, cancelled or interrupted jobs "
                                      "can be retried.")
                self._sequence += 1
                new = replace(job, sequence=self._sequence, status=JobStatus.QUEUED, retry_of=old.id)
                changed = [new]
                if old.status is JobStatus.INTERRUPTED:
                    changed.append(replace(old, status=JobStatus.CANCELLED, finished_at=now_iso(),
                                           error=f"Replaced by job {new.id}.", take_id=""))
                moved = [replace(j, depends_on=new.id) for j in self._jobs.values()
                         if j.depends_on == old.id and j.status in queue.WAITING and j.id != new.id]
                revived = queue.revived_dependents(old, new, self._jobs, self._sequence,
                                                   lambda node_id: node_id in self.project.tree.nodes,
                                                   lambda job: self._superseded_by(job) is not None)
                self._sequence += len(revived)
                self._hold([new, *revived])
                self._save([*changed, *moved, *revived])
            return new, moved, revived

        new, moved, revived = self.writer.call(operation)
        self._announce([JobEvent(EventKind.QUEUED, new), *(JobEvent(EventKind.UPDATED, j) for j in moved),
                        *(JobEvent(EventKind.QUEUED, j) for j in revived)])
        return new, moved

    def superseded_by(self, job: Job) -> Job | None:
        """The branch re-roll's job that makes ``job``'s turn's take instead of it, if any
        (:func:`queue.superseded_by`): ``job`` must not run again."""
        with self.cond:
            return self._superseded_by(job)

    def _superseded_by(self, job: Job) -> Job | None:
        return queue.superseded_by(job, self._jobs, _in_branch_reroll)

    def requeue_interrupted(self, only: Collection[str] | None = None) -> list[Job]:
        """Queue every interrupted job again (with ``only``, those of these ids), with its seed
        and place; except one that a branch re-roll queued since replaces (it was running then,
        the re-roll's job of its turn waited for it): it is cancelled, saying so, as the re-roll
        cancelled the jobs waiting then."""
        replaced: dict[str, list[str]] = {}

        def operation() -> tuple[list[Job], list[JobEvent]]:
            with self.cond:
                events = self._stored(lambda: self._requeue_interrupted(replaced, only))
                jobs = [e.job for e in events if e.kind is EventKind.QUEUED]
                self._hold(jobs)
                for new_id, old_ids in replaced.items():
                    self.replaced.setdefault(new_id, []).extend(old_ids)
            return jobs, events

        jobs, events = self.writer.call(operation)
        self._announce(events)
        for event in events:
            if event.kind is EventKind.CANCELLED:
                log.info("job %s: %s", event.job.id, event.job.error)
        return sorted(jobs, key=run_order_key)

    def _requeue_interrupted(self, replaced: dict[str, list[str]], only: Collection[str] | None = None
                             ) -> list[JobEvent]:
        """In memory, with ``cond`` held: see :meth:`requeue_interrupted`. ``replaced`` gets the
        jobs cancelled for each branch re-roll's job that replaces them."""
        events: list[JobEvent] = []
        for job_id in [job.id for job in sorted(self._jobs.values(), key=run_order_key)
                       if only is None or job.id in only]:
            job = self._jobs[job_id]  # as an earlier one's cancel left it
            later = self._superseded_by(job) if job.status is JobStatus.INTERRUPTED else None
            if later is None:
                continue
            message = queue.replaced_message(later.id)
            cancelled = replace(job, status=JobStatus.CANCELLED, finished_at=now_iso(), error=message, hint="",
                                take_id="")
            self._jobs[job.id] = cancelled
            replaced.setdefault(later.id, []).append(job.id)
            events.extend([JobEvent(EventKind.CANCELLED, cancelled, message=message),
                           *self._dependents_cancelled(cancelled)])
        requeued = [replace(job, status=JobStatus.QUEUED, error="", hint="", take_id="", started_at="")
                    for job in self._jobs.values()
                    if job.status is JobStatus.INTERRUPTED and (only is None or job.id in only)]
        again = {job.id for job in requeued}
        for job in requeued:
            self._jobs[job.id] = job
        # one event per job: a waiting job moved to the re-roll's job, then queued again, is QUEUED
        return [*(e for e in events if e.job.id not in again), *(JobEvent(EventKind.QUEUED, j) for j in requeued)]

    def clear_finished(self, forget: Callable[[str], object]) -> int:
        def operation() -> int:
            with self.cond:
                count = self._store.delete_finished()
                for job_id in [j.id for j in self._jobs.values() if j.finished]:
                    del self._jobs[job_id]
                    self.results.pop(job_id, None)
                    forget(job_id)
                self._publish_table()
                return count

        return self.writer.call(operation)

    def _queued(self, job_id: str) -> Job:
        job = self._jobs.get(job_id)
        if job is None or job.status is not JobStatus.QUEUED:
            raise StudioError(f"Job {job_id} is not waiting in the queue.")
        return job

    def _dependents_cancelled(self, ended: Job) -> list[JobEvent]:
        """Cancel (in memory) every waiting job that continues from ``ended``, except those
        whose turn above has a take to continue from, or another job on its way (they wait
        for that one instead: :func:`queue.rehomed_dependents`)."""
        rehomed = queue.rehomed_dependents(ended, self._jobs, self._has_done_take, _in_branch_reroll)
        for job in rehomed:
            self._jobs[job.id] = job
        cancelled = queue.cancel_dependents(ended, self._jobs)
        for job in cancelled:
            self._jobs[job.id] = job
        return [*(JobEvent(EventKind.UPDATED, job) for job in rehomed),
                *(JobEvent(EventKind.CANCELLED, job, message=job.error) for job in cancelled)]

    def _has_done_take(self, node_id: str) -> bool:
        tree = self.project.tree
        return node_id in tree.nodes and any(take.status is TakeStatus.DONE for take in tree.takes_of(node_id))

    # -- running ----------------------------------------------------------------------------

    def next_runnable(self, fits: Callable[[Job], bool]) -> Job | None:
        """With ``cond`` held. None while the job that would run next is not announced yet
        (it waits for its QUEUED event; a job after it does not jump the order meanwhile).
        A project opened read-only runs only its exports: its queued generations are the
        writer's that holds it (or wait for a writable opening), and could store nothing."""
        if self.project.read_only:
            allowed = fits
            fits = lambda job: job.kind is JobKind.TASK and allowed(job)  # noqa: E731
        job = queue.next_runnable(self._jobs, fits, self._waits_for_its_turn)
        return None if job is not None and job.id in self._unannounced else job

    def _waits_for_its_turn(self, job: Job) -> bool:
        """A branch re-roll's job is held back while another job of its turn runs here, so
        that its take is made, and selected, last (:func:`queue.running_of_turn`)."""
        return _in_branch_reroll(job) and queue.running_of_turn(job, self._jobs, self.running) is not None

    def announcing(self) -> bool:
        """With ``cond`` held: whether queued jobs wait for their QUEUED event (the queue is
        not idle then)."""
        return bool(self._unannounced)

    def claim(self, job: Job, claimer: str) -> Job | None:
        """Mark ``job`` running (None: another process took it, or it changed meanwhile) on
        ``claimer``, where it runs (stored with it: see :meth:`where`).
        Called without ``cond``; the database write runs on the writer.

        None too once the queue is paused or stopping: a job chosen just before is not started
        after. Whoever pauses and then waits for the writer (closing a project with its jobs
        kept) knows every job that will run until the worker stops: a job claimed after that
        was interrupted by the stop without being known as running, and stayed interrupted
        when the project opened again, the jobs after it blocked."""
        def operation() -> Job | None:
            with self.cond:
                current = self._jobs.get(job.id)
                if current is None or current.status is not JobStatus.QUEUED or job.id in self.running:
                    return None
                if self.paused or self.stopping:
                    return None
                running = replace(current, status=JobStatus.RUNNING, started_at=now_iso(), error="", hint="",
                                  take_id=_new_take_id(current), progress=0.0, eta_s=None)
                try:
                    claimed = self._store.claim(running, claimer)
                except Exception as error:  # the database refused: fail this job, keep serving
                    # the message and its hint apart, as every failure keeps them (str() of a
                    # StudioError joins them with a line break, shown inside the error)
                    message, hint = (error.message, error.hint) if isinstance(error, StudioError) else (str(error), "")
                    failed = replace(current, status=JobStatus.FAILED, finished_at=now_iso(),
                                     error=f"The job could not be started: {message}", hint=hint)
                    self._jobs[job.id] = failed
                    cascade = self._dependents_cancelled(failed)  # in memory, as the failure
                    self._publish_table()
                    self.cond.notify_all()
                    raise ClaimRefusedError(failed, cascade) from error
                if not claimed:
                    fresh = self._store.get(job.id)
                    if fresh is None:
                        del self._jobs[job.id]
                    else:
                        self._jobs[job.id] = fresh
                    self._publish_table()
                    return None
                self._jobs[job.id] = running
                self.running.add(job.id)
                self.runners[job.id] = claimer
                self._progress_due[job.id] = time.monotonic() + PROGRESS_STORE_S
                self._publish_table()
                return running

        return self.writer.call(operation)

    def end(self, job_id: str, status: JobStatus, message: str, hint: str, take_id: str, result: Any
            ) -> tuple[Job, list[JobEvent]]:
        """Record how a running job ended; returns it and the dependents it cancelled.
        The caller publishes the events, then calls :meth:`release` (so that a waiter
        woken by the release has every event already)."""
        def operation() -> tuple[Job, list[JobEvent]]:
            with self.cond:
                current = self._jobs[job_id]
                final, text = status, message
                if final is JobStatus.CANCELLED and job_id in self.interrupt_requested and current.persistent:
                    final, text = JobStatus.INTERRUPTED, self.interrupt_reason or CLOSED_MESSAGE
                ended = replace(
                    current, status=final, finished_at=now_iso(), error=text, hint=hint, take_id=take_id,
                    settings=current.settings if isinstance(current.settings, Mapping) else {},
                    progress=1.0 if final is JobStatus.DONE else current.progress,
                    eta_s=0.0 if final is JobStatus.DONE else None,
                )
                if result is not None:
                    self.results[job_id] = result
                cascade = self._dependents_cancelled(ended) if final.finished and final is not JobStatus.DONE \
                    else []
                self._jobs[job_id] = ended
                try:
                    self._save([ended, *(e.job for e in cascade)], durable=False)
                except Exception as error:
                    # A full disk (or a file-size limit) refused the row. The end counts all
                    # the same: raised, it was never announced, and whoever waited for the job
                    # (`reroll`, `play`) waited for good. The stored row still says running;
                    # the next opening settles it from its take (interrupted, with none), as
                    # after a crash.
                    settled = ("it is settled from its take when the project is opened again" if take_id else
                               "with no take recorded either, it shows as interrupted when the project is opened "
                               "again")
                    log.warning("could not store the end of job %s (%s); %s", job_id,
                                getattr(error, "message", error), settled)
                return ended, cascade

        return self.writer.call(operation)

    def put_back(self, job_id: str, message: str, hint: str = "", *,
                 counted: bool = True) -> tuple[Job, list[JobEvent]]:
        """A running job whose host was lost goes back to the queue, with its seed and its
        place (another host runs it). After :data:`MAX_HOST_LOSSES` losses it fails
        instead: a job that keeps killing its hosts is not sent to the next one.
        ``counted=False``: the loss was not this job's doing (the whole render farm went
        away), and does not bring it closer to failing.
        The caller publishes the events, then calls :meth:`release`."""
        def operation() -> tuple[Job, list[JobEvent]]:
            with self.cond:
                current = self._jobs[job_id]
                losses = self.host_losses.get(job_id, 0) + (1 if counted else 0)
                self.host_losses[job_id] = losses
                if losses >= MAX_HOST_LOSSES:
                    text = f"{message} The engine host running this job was lost {losses} times; it was not " \
                           "sent to another one."
                    ended = replace(current, status=JobStatus.FAILED, finished_at=now_iso(), error=text, hint=hint,
                                    take_id="", eta_s=None)
                    cascade = self._dependents_cancelled(ended)
                    self._jobs[job_id] = ended
                    self._save([ended, *(e.job for e in cascade)])
                    return ended, [JobEvent(EventKind.FAILED, ended, message=text, hint=hint), *cascade]
                again = replace(current, status=JobStatus.QUEUED, started_at="", take_id="", error="", hint="",
                                progress=0.0, eta_s=None)
                self._save([again])
                return again, [JobEvent(EventKind.QUEUED, again, message=message, hint=hint)]

        try:
            return self.writer.call(operation)
        except BaseException:
            self.release(job_id)
            raise

    def release(self, job_id: str) -> None:
        """The job no longer runs here (with ``cond`` held, or not)."""
        with self.cond:
            self.running.discard(job_id)
            self.runners.pop(job_id, None)
            self._progress_due.pop(job_id, None)
            self.cancel_requested.discard(job_id)
            self.interrupt_requested.discard(job_id)
            self._publish_table()
            self.cond.notify_all()

    def where(self, job_id: str) -> str:
        """Where job ``job_id`` runs in this process ("" when it does not run here). Without
        ``cond``, which the writer holds while it claims a job: the window asks as it draws the
        queue, and must not wait for a database write (one lookup in a dict needs no lock)."""
        return self.runners.get(job_id, "")

    def progressed(self, job_id: str, fraction: float, eta_s: float | None) -> Job | None:
        """In memory, and now and then in the database (every :data:`PROGRESS_STORE_S`, not
        waiting for the write), for other processes to read."""
        with self.cond:
            job = self._jobs.get(job_id)
            if job is None:
                return None
            job = replace(job, progress=fraction, eta_s=eta_s)
            self._jobs[job_id] = job
            self._publish_table()
            due = self._progress_due.get(job_id)
            store = job.persistent and due is not None and time.monotonic() >= due
            if store:
                self._progress_due[job_id] = time.monotonic() + PROGRESS_STORE_S
        if store:
            self._store_progress(job_id, fraction)
        return job

    def _store_progress(self, job_id: str, fraction: float) -> None:
        """Write a running job's progress on the writer, without waiting: a write that fails
        (a full disk) loses only this value, and the job goes on."""
        def failed(done: Any) -> None:
            error = done.exception()
            if error is not None:
                log.info("could not store the progress of job %s: %s", job_id, getattr(error, "message", error))

        self.writer.submit(lambda: self._store.record_progress(job_id, fraction)).add_done_callback(failed)


class ClaimRefusedError(Exception):
    """The database refused to start the job; it was marked failed."""

    def __init__(self, job: Job, cascade: list[JobEvent] | None = None) -> None:
        super().__init__(job.error)
        self.job = job
        self.cascade = list(cascade or [])
        """The jobs cancelled because they waited for it."""


def _in_branch_reroll(job: Job) -> bool:
    return job.label == REROLL_BRANCH_LABEL


def _new_take_id(job: Job) -> str:
    from studio.core.model import new_id

    return new_id() if job.kind is JobKind.GENERATE else ""
