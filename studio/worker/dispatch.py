"""The per-device hosts at work: one thread per device takes the next job it can run,
runs it in the device's engine host and records how it ended (through the job queue,
whose writes run on the writer thread)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from studio.core.state import CharacterState
from studio.engines.registry import EngineRegistry
from studio.engines.requirements import Requirement
from studio.worker.device_worker import DeviceWorker
from studio.worker.events import EventKind, JobEvent
from studio.worker.host_job import HostPrediction
from studio.worker.job_queue import ClaimRefusedError, JobQueue
from studio.worker.jobs import Job, JobKind, JobStatus
from studio.worker.progress import PROGRESS_SCALE, ProgressUpdate
from studio.worker.runner import NODE_DELETED_BEFORE_MESSAGE, Outcome, TaskFunction, run_task

log = logging.getLogger(__name__)


@dataclass(eq=False)
class TaskSlot:
    """The thread that runs tasks (exports) in this process when the devices are remote.

    A cluster's workers stand for GPUs elsewhere: an export there would hold a GPU's slot
    while it encodes here, and it would wait for ever while the cluster is being joined or
    could not be. Guarded by the queue's ``cond``, like a worker."""

    thread: threading.Thread | None = None
    running_id: str | None = None
    device: str = "this computer"


class DevicePool:
    def __init__(self, jobs: JobQueue, registry: EngineRegistry, workers: Sequence[DeviceWorker], *,
                 expecting: bool = False, local_tasks: bool = False) -> None:
        self.jobs = jobs
        self.registry = registry
        self.workers = list(workers)
        self.tasks: dict[str, TaskFunction] = {}
        self.expecting = expecting
        """Workers are still to come (a cluster being joined): queued jobs wait for them,
        and the pool is not idle while any is queued. Guarded by the queue's ``cond``."""
        self.task_slot: TaskSlot | None = TaskSlot() if local_tasks else None
        """Set: tasks run on its thread, not on the workers'."""
        self.retired: list[DeviceWorker] = []
        """Workers whose hosts went away for good (a lost render farm), until their threads end."""
        self._started = False
        self._reroll_selects = False

    # -- life cycle -------------------------------------------------------------------------

    def set_reroll_selects(self, on: bool) -> None:
        """Whether a re-roll of a turn with later turns selects its new take (default: no)."""
        with self.jobs.cond:
            self._reroll_selects = bool(on)
            for worker in self.workers:
                worker.runner.reroll_selects = bool(on)

    def add_workers(self, workers: Sequence[DeviceWorker]) -> None:
        """The workers that were expected (a cluster's hosts, once it answers); they start
        at once if the pool has started. With the queue's ``cond`` held."""
        for worker in workers:
            worker.runner.reroll_selects = self._reroll_selects
        self.workers.extend(workers)
        self.expecting = False
        if self._started and not self.jobs.stopping:
            self._start_threads()
        self.jobs.cond.notify_all()

    def restart_threads(self) -> None:
        """Start again the threads of workers whose thread ended (a host that could not start,
        allowed to try again) if the pool has started."""
        with self.jobs.cond:
            if self._started and not self.jobs.stopping:
                self._start_threads()
            self.jobs.cond.notify_all()

    def expect_workers(self) -> None:
        """Workers are to come again (joining the cluster once more): queued jobs wait for them."""
        with self.jobs.cond:
            self.expecting = True
            self.jobs.cond.notify_all()

    def retire(self, hosts: Collection[object]) -> list[DeviceWorker]:
        """The workers of ``hosts`` (a render farm that was lost) take no more jobs: they
        leave the pool, and their threads end once their job, if any, has gone back to the
        queue. Returns them."""
        with self.jobs.cond:
            gone = [worker for worker in self.workers if any(worker.host is host for host in hosts)]
            for worker in gone:
                worker.retired = True
            self.workers = [worker for worker in self.workers if not worker.retired]
            self.retired.extend(gone)
            self.jobs.cond.notify_all()
        return gone

    def join_retired(self, timeout: float | None) -> bool:
        """Wait for the retired workers' threads to end; False if one still runs after ``timeout``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self.jobs.cond:
            threads = [worker.thread for worker in self.retired if worker.thread is not None]
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        with self.jobs.cond:
            self.retired = [w for w in self.retired if w.thread is not None and w.thread.is_alive()]
            return not self.retired

    def give_up_expecting(self) -> None:
        """No workers will come (joining the cluster failed): the queued jobs stay queued."""
        with self.jobs.cond:
            self.expecting = False
            self.jobs.cond.notify_all()

    def start(self) -> None:
        with self.jobs.cond:
            self.jobs.stopping = False
            self._started = True
            self._start_threads()

    def _start_threads(self) -> None:
        """A thread for each worker without a live one. With the queue's ``cond`` held."""
        slot = self.task_slot
        if slot is not None and (slot.thread is None or not slot.thread.is_alive()):
            slot.thread = threading.Thread(target=self._task_loop, args=(slot,), daemon=True,
                                           name="kamishibai-tasks")
            slot.thread.start()
        for worker in self.workers:
            if worker.thread is not None and worker.thread.is_alive():
                continue
            worker.thread = threading.Thread(target=self._loop, args=(worker,), daemon=True,
                                             name=f"kamishibai-worker-{worker.index}-{worker.device}")
            worker.thread.start()

    def stop(self, cancel_running: bool, interrupt_running: bool, timeout: float | None, reason: str = "") -> bool:
        with self.jobs.cond:
            threads: list[tuple[DeviceWorker | TaskSlot, threading.Thread | None]] = [
                (worker, worker.thread) for worker in [*self.workers, *self.retired]]
            if self.task_slot is not None:
                threads.append((self.task_slot, self.task_slot.thread))
            self.jobs.stopping = True
            if cancel_running or interrupt_running:
                for running_id in self.running_ids():
                    self.jobs.cancel_requested.add(running_id)
                    if interrupt_running and not cancel_running:
                        self.jobs.interrupt_requested.add(running_id)
                        self.jobs.interrupt_reason = reason
            self.jobs.cond.notify_all()
        deadline = None if timeout is None else time.monotonic() + timeout
        for _worker, thread in threads:
            if thread is not None and thread is not threading.current_thread():
                thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
                if thread.is_alive():
                    return False
        with self.jobs.cond:
            for worker, thread in threads:
                if thread is worker.thread:
                    worker.thread = None
        return True

    @property
    def alive(self) -> bool:
        slots: list[DeviceWorker | TaskSlot] = [*self.workers]
        if self.task_slot is not None:
            slots.append(self.task_slot)
        return any(w.thread is not None and w.thread.is_alive() for w in slots)

    def running_ids(self) -> list[str]:
        """Jobs claimed by this process's devices (marked in the same step as the claim)."""
        return list(self.jobs.running)

    def unmet(self, engine: str) -> list[Requirement]:
        """Why no device here can run ``engine`` (the first device's reasons); [] when one
        can, or while the devices are still to come (a cluster being joined)."""
        with self.jobs.cond:
            workers = list(self.workers)
            if self.expecting or not workers:
                return []
        first: list[Requirement] = []
        for worker in workers:
            reasons = worker.unmet(self.registry, engine)
            if not reasons:
                return []
            first = first or reasons
        return first

    def forget_fits(self) -> None:
        """Weights may have arrived since engines were last checked."""
        for worker in self.workers:
            worker.fits.clear()

    # -- waiting ----------------------------------------------------------------------------

    def idle(self) -> bool:
        """With the queue's ``cond`` held."""
        if self.running_ids() or self.jobs.announcing():
            return False
        if self.jobs.paused:
            return True
        if self.task_slot is not None and self.jobs.next_runnable(_is_task) is not None:
            return False
        if self.expecting:
            return self.jobs.next_runnable(lambda job: True) is None
        # a worker whose thread ended (its host stopped for good: a render farm that was lost)
        # runs nothing more: its jobs stay queued, and `run-queue` says so instead of waiting
        live = [w for w in self.workers if w.thread is None or w.thread.is_alive()]
        return all(self._next_runnable(worker) is None for worker in live)

    def wait_idle(self, timeout: float | None) -> bool:
        with self.jobs.cond:
            return self.jobs.cond.wait_for(self.idle, timeout)

    def wait_jobs(self, job_ids: Iterable[str], timeout: float | None) -> bool:
        ids = list(job_ids)

        def finished() -> bool:
            table = self.jobs.table()
            return all(job_id not in table or (table[job_id].finished and job_id not in self.jobs.running)
                       for job_id in ids)

        with self.jobs.cond:
            return self.jobs.cond.wait_for(finished, timeout)

    def _next_runnable(self, worker: DeviceWorker) -> Job | None:
        tasks_here = self.task_slot is None

        def fits(job: Job) -> bool:
            if job.kind is JobKind.TASK:
                return tasks_here
            return worker.can_run(self.registry, job.engine)

        return self.jobs.next_runnable(fits)

    # -- a device's thread ------------------------------------------------------------------

    def _loop(self, worker: DeviceWorker) -> None:
        try:
            while True:
                if not worker.wait_ready(lambda: self.jobs.stopping):
                    return
                job = self._next_job(worker)
                if job is None:
                    return
                try:
                    self._run_one(job, worker)
                except BaseException:  # the worker thread never dies
                    log.exception("the worker failed on job %s", job.id)
                    self._force_end(job, worker)
        finally:
            worker.host.close()  # the thread that used the engine lets it go
            with self.jobs.cond:
                self.jobs.cond.notify_all()  # who waits for the queue to settle looks again

    def _task_loop(self, slot: TaskSlot) -> None:
        while True:
            job = self._next_job(slot)
            if job is None:
                return
            try:
                self._run_one(job, slot)
            except BaseException:  # the thread never dies
                log.exception("the task %s failed", job.id)
                self._force_end(job, slot)

    def _next_job(self, worker: DeviceWorker | TaskSlot) -> Job | None:
        """The next job this device (or the task slot) can run, claimed (marked running);
        None when stopping.

        The job is chosen under the queue's lock and claimed on the writer, without it."""
        def runnable() -> Job | None:
            if isinstance(worker, TaskSlot):
                return self.jobs.next_runnable(_is_task)
            return self._next_runnable(worker)

        while True:
            with self.jobs.cond:
                while True:
                    if self.jobs.stopping or (isinstance(worker, DeviceWorker) and worker.retired):
                        return None
                    job = None if self.jobs.paused else runnable()
                    if job is not None:
                        break
                    self.jobs.cond.wait()
            try:
                claimed = self.jobs.claim(job, self.where(worker))
            except ClaimRefusedError as failure:
                log.exception("could not start job %s", job.id)
                self.jobs.bus.publish(JobEvent(EventKind.FAILED, failure.job, message=failure.job.error,
                                               hint=failure.job.hint))
                self.jobs.publish(failure.cascade)
                continue
            if claimed is None:
                continue
            with self.jobs.cond:
                worker.running_id = claimed.id
            return claimed

    def where(self, worker: DeviceWorker | TaskSlot) -> str:
        """Where ``worker`` runs a job, in words: its device, or its host's own account (a
        render farm's node and actor). Two workers of one device (``--devices cpu,cpu``) are
        told apart by their number."""
        if isinstance(worker, TaskSlot):
            return worker.device
        where = worker.where
        with self.jobs.cond:
            twins = sum(1 for other in self.workers if other.device == worker.device)
        if twins > 1 and where == worker.device:
            return f"{where} · worker {worker.index + 1}"
        return where

    def _run_one(self, running: Job, worker: DeviceWorker | TaskSlot) -> None:
        self.jobs.bus.publish(JobEvent(EventKind.STARTED, running, where=self.jobs.where(running.id)))
        reporter = _JobReporter(self, running.id)

        def is_cancelled() -> bool:
            return running.id in self.jobs.cancel_requested

        if running.kind is JobKind.TASK:
            outcome = run_task(self.tasks[running.id], reporter, is_cancelled)
        else:
            assert isinstance(worker, DeviceWorker)
            outcome = worker.runner.run(running, reporter, is_cancelled)
        self._end(running.id, outcome, worker)

    def _end(self, job_id: str, outcome: Outcome, worker: DeviceWorker | TaskSlot) -> None:
        if outcome.status is JobStatus.QUEUED:  # its host was lost: back to the queue
            # a whole render farm lost is not the job's fault: only a lost host counts against it
            counted = not (isinstance(worker, DeviceWorker) and worker.retired)
            try:
                _job, events = self.jobs.put_back(job_id, outcome.message, outcome.hint, counted=counted)
                self.jobs.publish(events)
            finally:
                self._free(worker, job_id)
            return
        try:
            ended, cascade = self.jobs.end(job_id, outcome.status, outcome.message, outcome.hint, outcome.take_id,
                                           outcome.result)
        except BaseException:
            self._free(worker, job_id)
            raise
        if ended.status is JobStatus.DONE:
            event = JobEvent(EventKind.FINISHED, ended, step=PROGRESS_SCALE, total=PROGRESS_SCALE, eta_s=0.0,
                             take_id=ended.take_id, message=f"Ran on {outcome.ran_on}." if outcome.ran_on else "")
        elif ended.status is JobStatus.FAILED:
            event = JobEvent(EventKind.FAILED, ended, message=ended.error, hint=ended.hint, take_id=ended.take_id)
        elif ended.status is JobStatus.INTERRUPTED:
            event = JobEvent(EventKind.INTERRUPTED, ended, message=ended.error)
        else:
            event = JobEvent(EventKind.CANCELLED, ended, message=ended.error)
        try:
            self.jobs.publish([event, *cascade])
        finally:
            self._free(worker, job_id)
        if ended.error == NODE_DELETED_BEFORE_MESSAGE and ended.node_id is not None:
            self._requeue_if_restored(ended.node_id)

    def _requeue_if_restored(self, node_id: str) -> None:
        """A job just cancelled because its turn was gone: if an undo brought the turn back
        meanwhile (while the job was still running here, which the queue skips), queue it
        again now, as the undo would have."""
        try:
            self.jobs.requeue_restored_turns((node_id,))
        except Exception:  # it stays cancelled; it can be retried
            log.exception("could not queue again the jobs of turn %s", node_id)

    def _free(self, worker: DeviceWorker | TaskSlot, job_id: str) -> None:
        with self.jobs.cond:
            worker.running_id = None
            self.jobs.release(job_id)

    def _force_end(self, job: Job, worker: DeviceWorker | TaskSlot) -> None:
        """Last resort after an unexpected error in the worker itself."""
        with self.jobs.cond:
            if worker.running_id != job.id:
                return
        try:
            self._end(job.id, Outcome(JobStatus.FAILED, message="The worker failed unexpectedly; see the log."),
                      worker)
        except BaseException:
            log.exception("could not record the end of job %s", job.id)
            self._free(worker, job.id)

    # -- reports from a running job ---------------------------------------------------------

    def progress(self, job_id: str, update: ProgressUpdate) -> None:
        job = self.jobs.progressed(job_id, update.step / update.total, update.eta_s)
        if job is None:
            return
        self.jobs.bus.publish(JobEvent(
            EventKind.PROGRESS, job, step=update.step, total=update.total, eta_s=update.eta_s, stage=update.stage,
            stage_step=update.stage_step, stage_total=update.stage_total, message=update.message,
            preview=update.preview,
        ))

    def predicted(self, job_id: str, prediction: HostPrediction, state: CharacterState) -> None:
        job = self.jobs.get(job_id)
        if job is None:
            return
        self.jobs.bus.publish(JobEvent(
            EventKind.PREDICTED, job, deltas=prediction.deltas, motion_level=prediction.motion_level, state=state,
            warnings=tuple(prediction.warnings), conditioning=dict(prediction.conditioning),
        ))


def _is_task(job: Job) -> bool:
    return job.kind is JobKind.TASK


class _JobReporter:
    def __init__(self, pool: DevicePool, job_id: str) -> None:
        self._pool = pool
        self._job_id = job_id

    def progress(self, update: ProgressUpdate) -> None:
        self._pool.progress(self._job_id, update)

    def predicted(self, prediction: HostPrediction, state: CharacterState) -> None:
        self._pool.predicted(self._job_id, prediction, state)
