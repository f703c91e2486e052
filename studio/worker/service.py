"""The generation service: a persistent, ordered job queue and one worker thread per device.

Threads: callers (the GUI, the CLI) queue, cancel and reorder jobs from their own thread;
each device's worker thread runs one job at a time, with its engine in its own engine
host (a child process unless the in-process host is chosen). Shared state lives under one condition variable; events are
always published outside it, so a subscriber may call back into the service. Lock order:
the service's lock may be held while taking the database lock, never the document lock.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from studio.core.commands import AddTurn
from studio.core.errors import StudioError
from studio.core.model import Node, TakeStatus, new_id, now_iso
from studio.core.state import CharacterState
from studio.engines.base import EngineConfig, EngineError, Requirement
from studio.engines.registry import EngineRegistry
from studio.storage.job_store import INTERRUPTED_MESSAGE, JobStore, check_settings
from studio.storage.project import Project
from studio.worker import queue
from studio.worker.context import RepresentationCache
from studio.worker.device_worker import DeviceWorker, make_host, share_cores
from studio.worker.engine_host import EngineStatus, HostMode
from studio.worker.events import EventBus, EventCallback, EventKind, EventStream, JobEvent
from studio.worker.host_job import HostPrediction
from studio.worker.jobs import Job, JobKind, JobStatus, check_seed, display_order, new_seed, run_order_key
from studio.worker.progress import PROGRESS_SCALE, ProgressUpdate, StageTimes
from studio.worker.results import remove_take_media
from studio.worker.runner import REROLL_LABEL, GenerateRunner, Outcome, TaskFunction, run_task

log = logging.getLogger(__name__)


class GenerationService:
    """Queue generation jobs for ``project`` and run them on ``device``.

    Jobs are stored in the project database: queued work survives a restart; a job found
    ``running`` by a process that is gone becomes ``interrupted`` when the service is
    created, and is queued again by :meth:`requeue_interrupted` (or at once with
    ``auto_requeue=True``).

    ``devices`` gives one worker per entry (``["cpu", "cpu"]`` runs two jobs at once); it
    overrides ``device``. A job goes to a worker whose placement can run its engine;
    jobs that continue one another keep their order. ``hosts`` chooses where engines
    run: in one child process per device (the default) or on the worker's own thread.
    """

    def __init__(
        self,
        project: Project,
        registry: EngineRegistry,
        device: str | EngineConfig = "cpu",
        default_engine: str = "sketch",
        auto_requeue: bool = False,
        *,
        undoable_takes: bool = True,
        devices: Sequence[str | EngineConfig] | None = None,
        hosts: HostMode = HostMode.PROCESS,
    ) -> None:
        self.project = project
        self.registry = registry
        configs = share_cores([d if isinstance(d, EngineConfig) else EngineConfig.parse(d)
                               for d in (devices or [device])])
        self.config = configs[0]
        self.device = self.config.describe()
        self.devices = [config.describe() for config in configs]
        self.hosts = hosts
        self.default_engine = default_engine
        self._store = JobStore(project.database)
        self._stage_times = StageTimes()
        cache = RepresentationCache()
        self._workers: list[DeviceWorker] = []
        for index, config in enumerate(configs):
            host = make_host(hosts, registry, config)
            runner = GenerateRunner(project, host, self._stage_times, cache, undoable_takes=undoable_takes)
            self._workers.append(DeviceWorker(index, config, host, runner))
        self._bus = EventBus()
        self._cond = threading.Condition(threading.RLock())
        self._stopping = False
        self._paused = False
        self._cancel_requested: set[str] = set()
        self._interrupt_requested: set[str] = set()
        self._tasks: dict[str, TaskFunction] = {}
        self._results: dict[str, Any] = {}
        self._jobs: dict[str, Job] = {}
        self._last_jobs: list[Job] = []
        self._recover()
        self._sequence = max((job.sequence for job in self._jobs.values()), default=0)
        if auto_requeue:
            self.requeue_interrupted()

    def set_reroll_selects(self, on: bool) -> None:
        """Whether a re-roll of a turn with later turns selects its new take (default: no)."""
        for worker in self._workers:
            worker.runner.reroll_selects = bool(on)

    # -- start-up ---------------------------------------------------------------------

    def _recover(self) -> None:
        """Settle the jobs of a dead process from the database (see :meth:`JobStore.recover`)."""
        if not self.project.read_only:
            self._store.recover(lambda take_id: remove_take_media(self.project, take_id))
        self._jobs = {job.id: job for job in self._store.load()}
        with self._cond:
            events = self._cascade_all() if not self.project.read_only else []
        self._publish_all(events)

    # -- life cycle -------------------------------------------------------------------

    def start(self) -> None:
        """Start a worker thread per device (idempotent)."""
        with self._cond:
            self._stopping = False
            for worker in self._workers:
                if worker.thread is not None and worker.thread.is_alive():
                    continue
                worker.thread = threading.Thread(target=self._loop, args=(worker,), daemon=True,
                                                 name=f"kamishibai-worker-{worker.index}-{worker.device}")
                worker.thread.start()

    def stop(self, cancel_running: bool = False, timeout: float | None = 30.0, *,
             interrupt_running: bool = False) -> bool:
        """Stop the worker after its current job, or stop that job within one engine step:
        ``cancel_running`` ends it as cancelled, ``interrupt_running`` as interrupted (it
        runs again, with its seed, after :meth:`requeue_interrupted` or ``auto_requeue``).

        Queued jobs stay queued in the project. Returns False if the thread is still busy
        after ``timeout`` seconds. Open ``events()`` iterators end.
        """
        with self._cond:
            threads = [(worker, worker.thread) for worker in self._workers]
            self._stopping = True
            if cancel_running or interrupt_running:
                for running_id in self._running_ids():
                    self._cancel_requested.add(running_id)
                    if interrupt_running and not cancel_running:
                        self._interrupt_requested.add(running_id)
            self._cond.notify_all()
        deadline = None if timeout is None else time.monotonic() + timeout
        for _worker, thread in threads:
            if thread is not None and thread is not threading.current_thread():
                thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
                if thread.is_alive():
                    return False
        with self._cond:
            for worker, thread in threads:
                if thread is worker.thread:
                    worker.thread = None
        self._bus.close_streams()
        return True

    @property
    def running(self) -> bool:
        """True while a worker thread is alive."""
        return any(w.thread is not None and w.thread.is_alive() for w in self._workers)

    def _running_ids(self) -> list[str]:
        return [w.running_id for w in self._workers if w.running_id is not None]

    def pause(self) -> None:
        """Start no new job (the running one finishes)."""
        with self._cond:
            self._paused = True
            self._cond.notify_all()

    def resume(self) -> None:
        with self._cond:
            self._paused = False
            self._cond.notify_all()

    @property
    def paused(self) -> bool:
        return self._paused

    def __enter__(self) -> GenerationService:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop(cancel_running=True)

    # -- events -----------------------------------------------------------------------

    def subscribe(self, callback: EventCallback) -> Callable[[], None]:
        """Call ``callback(event)`` for every job event; returns the unsubscribe function.

        Called on the worker thread for what running jobs do (keep it short)."""
        return self._bus.subscribe(callback)

    def events(self) -> EventStream:
        """``async for event in service.events()``: delivered on the calling event loop."""
        return self._bus.stream()

    def _publish_all(self, events: Iterable[JobEvent]) -> None:
        for event in events:
            self._bus.publish(event)

    # -- queries ----------------------------------------------------------------------

    def jobs(self, include_finished: bool = False, *, wait: bool = True) -> list[Job]:
        """The queue in display order.

        ``wait=False`` is for a GUI thread: while the worker holds the queue's lock (it
        writes to the database, fsync included, under it) the last list read is returned
        instead of waiting; the job events that follow bring the news.
        """
        if self._cond.acquire(blocking=wait):
            try:
                self._last_jobs = list(self._jobs.values())
            finally:
                self._cond.release()
        jobs = [j for j in self._last_jobs if include_finished or not j.finished]
        return display_order(jobs)

    def job(self, job_id: str) -> Job:
        with self._cond:
            job = self._jobs.get(job_id)
        if job is None:
            raise StudioError(f"No job {job_id!r} in this project's queue.")
        return job

    def task_result(self, job_id: str) -> Any:
        """What a finished task's function returned (None for generate jobs)."""
        return self._results.get(job_id)

    def engine_status(self) -> EngineStatus:
        """The first device's engine (see :meth:`engine_statuses` for every device)."""
        return self._workers[0].host.status()

    def engine_statuses(self) -> list[EngineStatus]:
        return [worker.host.status() for worker in self._workers]

    def engine_pids(self) -> list[int | None]:
        """Each device's engine process id (None: no process runs, or in-process hosts)."""
        return [getattr(worker.host, "pid", None) for worker in self._workers]

    def unload_engine(self) -> bool:
        """Unload every device's engine now if no job is running (to free GPU memory)."""
        with self._cond:
            if self._running_ids():
                return False
            for worker in self._workers:
                worker.host.unload()
            return True

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no job runs and none can start (paused, empty, or all waiting on
        interrupted jobs). True if idle, False on timeout."""
        with self._cond:
            return self._cond.wait_for(self._idle, timeout)

    def wait_jobs(self, job_ids: Iterable[str], timeout: float | None = None) -> bool:
        """Wait until every job in ``job_ids`` is done, failed or cancelled."""
        ids = list(job_ids)

        def finished() -> bool:
            return all(job_id not in self._jobs or self._jobs[job_id].finished for job_id in ids)

        with self._cond:
            return self._cond.wait_for(finished, timeout)

    def _idle(self) -> bool:
        return not self._running_ids() and (
            self._paused or all(self._next_runnable(worker) is None for worker in self._workers))

    # -- queueing ---------------------------------------------------------------------

    def generate(
        self,
        parent_id: str,
        text: str,
        *,
        engine: str | None = None,
        seed: int | None = None,
        settings: Mapping[str, Any] | None = None,
        priority: int = 0,
    ) -> tuple[str, str]:
        """Add a turn under ``parent_id`` and queue its first take. Returns (node id, job id)."""
        engine_name = self._engine_name(engine)
        job_settings = self._settings_for(engine_name, settings)
        check_seed(seed)  # everything is checked before the turn is added
        node_id = new_id()
        self.project.apply(AddTurn(parent_id, text, node_id=node_id))
        job = self._new_job(node_id, engine_name, seed, job_settings, priority, "Generate")
        self._enqueue([job])
        return node_id, job.id

    def reroll(
        self,
        node_id: str,
        *,
        engine: str | None = None,
        seed: int | None = None,
        settings: Mapping[str, Any] | None = None,
        priority: int = 0,
    ) -> str:
        """Queue a new take of ``node_id`` (a new random seed unless ``seed`` is given)."""
        node = self._turn(node_id)
        engine_name, job_settings = self._engine_for(node, engine, settings)
        job = self._new_job(node.id, engine_name, seed, job_settings, priority, REROLL_LABEL)
        self._enqueue([job])
        return job.id

    def reroll_branch(
        self,
        node_id: str,
        *,
        engine: str | None = None,
        seed: int | None = None,
        settings: Mapping[str, Any] | None = None,
        priority: int = 0,
    ) -> list[str]:
        """Re-roll ``node_id`` and every turn below it, parent before child.

        Each child's job waits for its parent's job and is generated from the parent's new
        take (the context is built when the job starts). From the story's start, every
        turn is re-rolled.
        """
        tree = self.project.tree
        with self.project.document.lock:
            start = self._node(node_id)
            nodes = [start, *tree.descendants(start.id)]
        if start.is_root:
            nodes = nodes[1:]
        job_of: dict[str, str] = {}
        jobs: list[Job] = []
        for node in nodes:
            engine_name, job_settings = self._engine_for(node, engine, settings)
            depends = job_of.get(node.parent_id or "")
            job = self._new_job(node.id, engine_name, seed, job_settings, priority, "Re-roll branch", depends)
            job_of[node.id] = job.id
            jobs.append(job)
        self._enqueue(jobs)
        return [job.id for job in jobs]

    def fill(
        self,
        leaf_id: str,
        *,
        engine: str | None = None,
        settings: Mapping[str, Any] | None = None,
        priority: int = 0,
    ) -> list[str]:
        """Queue a take for every turn on the root-to-``leaf_id`` branch that has no done take.

        Turns are generated in order (each job waits for the one above it); a turn that
        already has a queued or running job is not queued twice.
        """
        tree = self.project.tree
        with self.project.document.lock:
            path = tree.path_to(self._node(leaf_id).id)[1:]
            missing = {
                node.id for node in path if not any(t.status is TakeStatus.DONE for t in tree.takes_of(node.id))
            }
        with self._cond:
            active = {
                job.node_id: job.id for job in sorted(self._jobs.values(), key=lambda j: j.sequence)
                if job.kind is JobKind.GENERATE and job.status in (JobStatus.QUEUED, JobStatus.RUNNING)
            }
        jobs: list[Job] = []
        previous: str | None = None
        for node in path:
            if node.id in active:
                previous = active[node.id]
                continue
            if node.id not in missing:
                continue
            engine_name, job_settings = self._engine_for(node, engine, settings)
            job = self._new_job(node.id, engine_name, None, job_settings, priority, "Fill", previous)
            previous = job.id
            jobs.append(job)
        self._enqueue(jobs)
        return [job.id for job in jobs]

    def submit_task(
        self, label: str, fn: TaskFunction, node_id: str | None = None, *, priority: int = 0,
    ) -> str:
        """Run ``fn(progress, cancelled)`` on the worker thread, in queue order, with job
        events like any job (used for exports). Not stored: lost when the app quits."""
        job = Job(id=new_id(), kind=JobKind.TASK, node_id=node_id, priority=priority, label=label,
                  created_at=now_iso())
        self._tasks[job.id] = fn
        self._enqueue([job])
        return job.id

    def retry(self, job_id: str, *, seed: int | None = None, same_seed: bool = False) -> str:
        """Queue a failed, cancelled or interrupted job again as a new job (same node,
        engine and settings; a new seed unless ``seed`` or ``same_seed`` says otherwise)."""
        old = self.job(job_id)
        if old.status not in (JobStatus.FAILED, JobStatus.CANCELLED, JobStatus.INTERRUPTED):
            raise StudioError(f"Job {job_id} is {old.status.value}; only failed, cancelled or interrupted jobs "
                              "can be retried.")
        if old.kind is JobKind.TASK:
            fn = self._tasks.get(old.id)
            if fn is None:
                raise StudioError(f"Task {job_id} can't be retried: it was not started in this session.")
            new_job = self.submit_task(old.label, fn, old.node_id, priority=old.priority)
            return new_job
        if old.node_id is None or old.node_id not in self.project.tree.nodes:
            raise StudioError(f"Job {job_id} can't be retried: its turn was deleted.")
        chosen = seed if seed is not None else (old.seed if same_seed else None)
        job = replace(self._new_job(old.node_id, old.engine, chosen, dict(old.settings), old.priority,
                                    old.label or "Retry"), retry_of=old.id)
        replaced: list[Job] = []
        if old.status is JobStatus.INTERRUPTED:
            replaced.append(replace(old, status=JobStatus.CANCELLED, finished_at=now_iso(),
                                    error=f"Replaced by job {job.id}."))
        self._enqueue([job], also_save=replaced)
        return job.id

    def requeue_interrupted(self) -> list[str]:
        """Queue every interrupted job again, with its own seed and place in the queue."""
        with self._cond:
            jobs = [
                replace(job, status=JobStatus.QUEUED, error="", hint="", take_id="", started_at="")
                for job in self._jobs.values() if job.status is JobStatus.INTERRUPTED
            ]
            if not jobs:
                return []
            self._store.save_all(jobs)
            for job in jobs:
                self._jobs[job.id] = job
            self._cond.notify_all()
        self._publish_all(JobEvent(EventKind.QUEUED, job) for job in jobs)
        return [job.id for job in sorted(jobs, key=run_order_key)]

    def clear_finished(self) -> int:
        """Forget done, failed and cancelled jobs (their takes stay)."""
        with self._cond:
            count = self._store.delete_finished()
            for job_id in [j.id for j in self._jobs.values() if j.finished]:
                del self._jobs[job_id]
                self._tasks.pop(job_id, None)
                self._results.pop(job_id, None)
        return count

    # -- changing the queue -------------------------------------------------------------

    def cancel(self, job_id: str) -> bool:
        """Cancel a queued or interrupted job now, or a running one within one engine step.

        Jobs that depend on it are cancelled too. False if it had already finished."""
        with self._cond:
            job = self._jobs.get(job_id)
            if job is None:
                raise StudioError(f"No job {job_id!r} in this project's queue.")
            if job.status is JobStatus.RUNNING:
                if job_id not in self._running_ids():
                    return False  # run by another process
                self._cancel_requested.add(job_id)
                return True
            if job.status not in (JobStatus.QUEUED, JobStatus.INTERRUPTED):
                return False
            cancelled = replace(job, status=JobStatus.CANCELLED, finished_at=now_iso(), error="Cancelled.",
                                take_id="")
            cascade = self._dependents_cancelled(cancelled)
            self._save([cancelled, *(e.job for e in cascade)])
            self._cond.notify_all()
        self._publish_all([JobEvent(EventKind.CANCELLED, cancelled, message="Cancelled."), *cascade])
        return True

    def move(self, job_id: str, index: int) -> None:
        """Move a queued job to ``index`` in the run order (0 runs next).

        The job takes the priority of its new neighbours when its own doesn't fit there."""
        with self._cond:
            self._queued(job_id)
            self._save(queue.move_to(self._jobs, job_id, index))
            self._cond.notify_all()
            moved = self._jobs[job_id]
        self._bus.publish(JobEvent(EventKind.UPDATED, moved))

    def set_priority(self, job_id: str, priority: int) -> None:
        """Change a queued (or interrupted) job's priority: higher runs first."""
        with self._cond:
            job = self._jobs.get(job_id)
            if job is None or job.status not in (JobStatus.QUEUED, JobStatus.INTERRUPTED):
                raise StudioError(f"Job {job_id} is not waiting in the queue.")
            job = replace(job, priority=int(priority))
            self._save([job])
            self._cond.notify_all()
        self._bus.publish(JobEvent(EventKind.UPDATED, job))

    # -- helpers for queueing -----------------------------------------------------------

    def _engine_name(self, engine: str | None) -> str:
        """``engine`` (or the default), refused now if it is unknown or no device can run it."""
        name = engine or self.default_engine
        if name not in self.registry.names():
            known = ", ".join(self.registry.names()) or "none"
            raise StudioError(f"Unknown engine {name!r}.", hint=f"Available engines: {known}.")
        unmet = []
        for worker in self._workers:
            unmet = self.registry.check(name, worker.config)
            if not unmet:
                break
        if unmet:
            more = f" (and {len(unmet) - 1} more reason(s))" if len(unmet) > 1 else ""
            raise EngineError(f"The {name} engine can't run here: {unmet[0].message}{more}",
                              hint=unmet[0].hint or "Run `kamishibai doctor` for every reason.")
        return name

    def check_engine(self, name: str) -> list[Requirement]:
        """Every reason ``name`` can't run with this service's configuration."""
        return self.registry.check(name, self.config)

    def _settings_for(self, engine: str, settings: Mapping[str, Any] | None) -> dict[str, Any]:
        """The values that differ from the engine's defaults, validated now (not at job time)."""
        chosen = self.registry.info(engine).settings.from_values(settings or {})
        return check_settings(chosen.overrides())

    def _engine_for(self, node: Node, engine: str | None, settings: Mapping[str, Any] | None
                    ) -> tuple[str, dict[str, Any]]:
        """The engine and settings to re-roll ``node`` with: as given, else its current take's."""
        current = self.project.tree.takes.get(node.selected_take_id or "")
        if engine is None and current is not None and current.engine in self.registry.names():
            name = self._engine_name(current.engine)
        else:
            name = self._engine_name(engine)
        if settings is not None:
            return name, self._settings_for(name, settings)
        if current is not None and current.engine == name:
            used = self.registry.info(name).settings.from_values(current.settings, ignore_unknown=True)
            return name, check_settings(used.overrides())
        return name, {}

    def _node(self, node_id: str) -> Node:
        node = self.project.tree.nodes.get(node_id)
        if node is None:
            raise StudioError(f"No node {node_id!r} in this project.")
        return node

    def _turn(self, node_id: str) -> Node:
        node = self._node(node_id)
        if node.is_root:
            raise StudioError("The story's start has no clip to generate.", hint="Choose a turn instead.")
        return node

    def _new_job(self, node_id: str, engine: str, seed: int | None, settings: dict[str, Any], priority: int,
                 label: str, depends_on: str | None = None) -> Job:
        check_seed(seed)
        return Job(
            id=new_id(), kind=JobKind.GENERATE, node_id=node_id, engine=engine,
            seed=new_seed() if seed is None else int(seed), settings=settings, priority=int(priority),
            created_at=now_iso(), depends_on=depends_on, label=label,
        )

    def _enqueue(self, jobs: list[Job], also_save: Iterable[Job] = ()) -> None:
        if not jobs:
            return
        with self._cond:
            for worker in self._workers:
                worker.fits.clear()  # weights may have arrived since the last check
            numbered = []
            for job in jobs:
                self._sequence += 1
                numbered.append(replace(job, sequence=self._sequence, status=JobStatus.QUEUED))
            self._save([*numbered, *also_save])
            self._cond.notify_all()
        self._publish_all(JobEvent(EventKind.QUEUED, job) for job in numbered)

    def _save(self, jobs: list[Job]) -> None:
        """Store first, then count: a job the database refused is not in the queue."""
        self._store.save_all(jobs)
        for job in jobs:
            self._jobs[job.id] = job

    def _queued(self, job_id: str) -> Job:
        job = self._jobs.get(job_id)
        if job is None or job.status is not JobStatus.QUEUED:
            raise StudioError(f"Job {job_id} is not waiting in the queue.")
        return job

    # -- dependencies -------------------------------------------------------------------

    def _dependents_cancelled(self, ended: Job) -> list[JobEvent]:
        """Cancel (in memory) every waiting job that continues from ``ended``."""
        cancelled = queue.cancel_dependents(ended, self._jobs)
        for job in cancelled:
            self._jobs[job.id] = job
        return [JobEvent(EventKind.CANCELLED, job, message=job.error) for job in cancelled]

    def _cascade_all(self) -> list[JobEvent]:
        events: list[JobEvent] = []
        for job in list(self._jobs.values()):
            if job.status in (JobStatus.FAILED, JobStatus.CANCELLED):
                events.extend(self._dependents_cancelled(job))
        if events:
            self._store.save_all(e.job for e in events)
        return events

    def _next_runnable(self, worker: DeviceWorker) -> Job | None:
        def fits(job: Job) -> bool:
            return job.kind is JobKind.TASK or worker.can_run(self.registry, job.engine)

        return queue.next_runnable(self._jobs, fits)

    # -- the worker thread --------------------------------------------------------------

    def _loop(self, worker: DeviceWorker) -> None:
        try:
            while True:
                job = self._wait_for_job(worker)
                if job is None:
                    return
                try:
                    self._run_one(job, worker)
                except BaseException:  # the worker thread never dies
                    log.exception("the worker failed on job %s", job.id)
                    self._force_end(job, worker)
        finally:
            worker.host.close()  # the thread that used the engine lets it go

    def _wait_for_job(self, worker: DeviceWorker) -> Job | None:
        """The next job this device can run, claimed (marked running); None when the service stops."""
        with self._cond:
            while not self._stopping:
                job = None if self._paused else self._next_runnable(worker)
                if job is None:
                    self._cond.wait()
                    continue
                try:
                    claimed = self._claim(job, worker)
                except Exception as error:  # the database refused: fail this job, keep serving
                    log.exception("could not start job %s", job.id)
                    failed = replace(job, status=JobStatus.FAILED, finished_at=now_iso(),
                                     error=f"The job could not be started: {error}")
                    self._jobs[job.id] = failed
                    self._bus.publish(JobEvent(EventKind.FAILED, failed, message=failed.error))
                    continue
                if claimed is not None:
                    return claimed
            return None

    def _claim(self, job: Job, worker: DeviceWorker) -> Job | None:
        with self._cond:
            running = replace(job, status=JobStatus.RUNNING, started_at=now_iso(), error="", hint="",
                              take_id=new_id() if job.kind is JobKind.GENERATE else "", progress=0.0, eta_s=None)
            if not self._store.claim(running):
                fresh = self._store.get(job.id)
                if fresh is None:
                    del self._jobs[job.id]
                else:
                    self._jobs[job.id] = fresh
                return None
            self._jobs[job.id] = running
            worker.running_id = job.id
            return running

    def _run_one(self, running: Job, worker: DeviceWorker) -> None:
        self._bus.publish(JobEvent(EventKind.STARTED, running))
        reporter = _JobReporter(self, running.id)

        def is_cancelled() -> bool:
            return running.id in self._cancel_requested

        if running.kind is JobKind.TASK:
            outcome = run_task(self._tasks[running.id], reporter, is_cancelled)
        else:
            outcome = worker.runner.run(running, reporter, is_cancelled)
        self._end(running.id, outcome, worker)

    def _end(self, job_id: str, outcome: Outcome, worker: DeviceWorker) -> None:
        with self._cond:
            current = self._jobs[job_id]
            if outcome.status is JobStatus.CANCELLED and job_id in self._interrupt_requested and current.persistent:
                outcome = replace(outcome, status=JobStatus.INTERRUPTED, message=INTERRUPTED_MESSAGE)
            ended = replace(
                current, status=outcome.status, finished_at=now_iso(), error=outcome.message, hint=outcome.hint,
                take_id=outcome.take_id, progress=1.0 if outcome.status is JobStatus.DONE else current.progress,
                eta_s=0.0 if outcome.status is JobStatus.DONE else None,
            )
            if outcome.result is not None:
                self._results[job_id] = outcome.result
            cascade = self._dependents_cancelled(ended) if outcome.status.finished and outcome.status is not \
                JobStatus.DONE else []
            self._jobs[job_id] = ended
            try:
                self._store.save_all([ended, *(e.job for e in cascade)], durable=False)
            finally:
                worker.running_id = None
                self._cancel_requested.discard(job_id)
                self._interrupt_requested.discard(job_id)
                self._cond.notify_all()
        if outcome.status is JobStatus.DONE:
            event = JobEvent(EventKind.FINISHED, ended, step=PROGRESS_SCALE, total=PROGRESS_SCALE, eta_s=0.0,
                             take_id=ended.take_id)
        elif outcome.status is JobStatus.FAILED:
            event = JobEvent(EventKind.FAILED, ended, message=outcome.message, hint=outcome.hint,
                             take_id=ended.take_id)
        elif outcome.status is JobStatus.INTERRUPTED:
            event = JobEvent(EventKind.INTERRUPTED, ended, message=outcome.message)
        else:
            event = JobEvent(EventKind.CANCELLED, ended, message=outcome.message)
        self._publish_all([event, *cascade])

    def _force_end(self, job: Job, worker: DeviceWorker) -> None:
        """Last resort after an unexpected error in the worker itself."""
        with self._cond:
            if worker.running_id != job.id:
                return
        try:
            self._end(job.id, Outcome(JobStatus.FAILED, message="The worker failed unexpectedly; see the log."),
                      worker)
        except BaseException:
            log.exception("could not record the end of job %s", job.id)
            with self._cond:
                worker.running_id = None
                self._cond.notify_all()

    def _progress(self, job_id: str, update: ProgressUpdate) -> None:
        with self._cond:
            job = self._jobs.get(job_id)
            if job is None:
                return
            job = replace(job, progress=update.step / update.total, eta_s=update.eta_s)
            self._jobs[job_id] = job
        self._bus.publish(JobEvent(
            EventKind.PROGRESS, job, step=update.step, total=update.total, eta_s=update.eta_s, stage=update.stage,
            stage_step=update.stage_step, stage_total=update.stage_total, message=update.message,
        ))

    def _predicted(self, job_id: str, prediction: HostPrediction, state: CharacterState) -> None:
        with self._cond:
            job = self._jobs[job_id]
        self._bus.publish(JobEvent(
            EventKind.PREDICTED, job, deltas=prediction.deltas, motion_level=prediction.motion_level, state=state,
            warnings=tuple(prediction.warnings), conditioning=dict(prediction.conditioning),
        ))


class _JobReporter:
    def __init__(self, service: GenerationService, job_id: str) -> None:
        self._service = service
        self._job_id = job_id

    def progress(self, update: ProgressUpdate) -> None:
        self._service._progress(self._job_id, update)

    def predicted(self, prediction: HostPrediction, state: CharacterState) -> None:
        self._service._predicted(self._job_id, prediction, state)
