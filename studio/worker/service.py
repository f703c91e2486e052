"""The generation service: a small facade over the job queue, the per-device hosts, the
operations that pair a command with jobs, and the one writer.

Threads: callers (the GUI, the CLI) submit operations from their own thread; every change
to the document and the database runs on the writer thread (:mod:`studio.worker.writer`);
each device's thread runs one job at a time, with its engine in its own engine host (a
child process unless the in-process host is chosen). Readers get snapshots: the tree
(``project.tree``) and the queue (:meth:`GenerationService.jobs`) never make them wait.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from studio.core.changes import ChangeSet, EntityKind
from studio.core.model import TakeStatus
from studio.engines.base import EngineConfig, Requirement
from studio.engines.registry import EngineRegistry
from studio.storage.project import Project
from studio.worker.choice_reroll import ChoiceLabels
from studio.worker.context import RepresentationCache
from studio.worker.device_worker import DeviceWorker, make_host
from studio.worker.dispatch import DevicePool
from studio.worker.engine_host import EngineStatus, HostMode
from studio.worker.event_bus import EventBus, EventCallback, EventStream, only_jobs
from studio.worker.events import DocumentChanged, JobEvent
from studio.worker.job_queue import JobQueue
from studio.worker.jobs import Job, JobKind, JobStatus
from studio.worker.operations import Operations
from studio.worker.progress import StageTimes
from studio.worker.queue import blocked_jobs
from studio.worker.runner import GenerateRunner, TaskFunction, undo_group_key
from studio.worker.thread_budget import share_cores
from studio.worker.writer import Writer

if TYPE_CHECKING:
    from studio.worker.cluster import ClusterSpec, ClusterStatus
    from studio.worker.cluster.backend import RayCluster
    from studio.worker.cluster.connection import ClusterConnection
    from studio.worker.cluster.retry import RetrySchedule

log = logging.getLogger(__name__)

WATCH_S = 5.0
"""How often the window's studio looks at a joined cluster's head (a connection to its
port), so that a farm lost while no job runs is said at once, and joined again."""
RETIRED_WAIT_S = 10.0
"""How long joining a lost cluster again waits for the threads of its old hosts to end."""


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

    ``writer``: the project's one writer (made here when not given). Document changes are
    published on the same event path as job events (:class:`DocumentChanged`).

    ``cluster``: run the engines on a Ray cluster instead, one worker per actor (see
    :mod:`studio.worker.cluster`); ``devices`` then only gives the checkpoints and dtype.
    Without Ray installed this raises :class:`~studio.worker.cluster.RayMissingError`.
    ``connect_in_background``: join the cluster on a thread of its own, started by
    :meth:`start` (the window's choice: it never waits on Ray). Jobs queue meanwhile and
    start once the cluster's hosts exist; a failure (no Ray, a wrong address) shows in
    :meth:`cluster_status`, and the queued jobs stay queued.

    ``reconnect`` (default: ``connect_in_background``): once a joined cluster is lost (its
    head stopped answering), join it again by itself, after growing delays
    (:mod:`studio.worker.cluster.retry`), and send the queued jobs there once it answers.
    Without it, :meth:`connect_again` does it when asked.
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
        writer: Writer | None = None,
        cluster: ClusterSpec | None = None,
        connect_in_background: bool = False,
        reconnect: bool | None = None,
    ) -> None:
        self.project = project
        self.registry = registry
        configs = [d if isinstance(d, EngineConfig) else EngineConfig.parse(d) for d in (devices or [device])]
        self._cluster: RayCluster | None = None
        self._connection: ClusterConnection | None = None
        self._spec = cluster
        self._reconnect = connect_in_background if reconnect is None else reconnect
        self._retry: RetrySchedule | None = None
        """Joining a lost cluster again (None: not lost, or not retrying). Guarded by the queue's cond."""
        self._lost_why = ""
        self._stopped = threading.Event()
        cluster_hosts: list[Any] = []
        if cluster is not None and connect_in_background:  # the hosts come when the cluster answers
            self._connection = self._new_connection(cluster)
        elif cluster is not None:
            from studio.worker.cluster.backend import RayCluster

            self._cluster = RayCluster.connect(cluster)
            self._cluster.on_lost = self._on_lost(self._cluster)
            cluster_hosts = self._cluster.make_hosts(registry, configs[0], default_engine)
        else:
            configs = share_cores(configs)
        self._base_config = configs[0]
        self.config = cluster_hosts[0].config if cluster_hosts else configs[0]
        self.device = self.config.describe()
        self.hosts = hosts
        self.writer = writer if writer is not None else Writer(project)
        self._bus = EventBus()
        self._queue = JobQueue(project, self.writer, self._bus)
        self._unlisten = project.document.subscribe(self._document_changed)
        self._stage_times = StageTimes()
        self._cache = RepresentationCache()
        self._undoable_takes = undoable_takes
        self._choices = ChoiceLabels()
        if cluster is not None:
            workers = self._workers([(host.config, host) for host in cluster_hosts])
        else:
            workers = self._workers([(config, make_host(hosts, registry, config)) for config in configs])
        self.devices = [worker.host.device if cluster is not None else worker.config.describe() for worker in workers]
        self._pool = DevicePool(self._queue, registry, workers, expecting=self._connection is not None,
                                local_tasks=cluster is not None)
        self._operations = Operations(project, registry, self._queue, self._pool, default_engine, self._choices)
        self._queue.recover(registry.names())
        if self._cluster is not None:  # actors start later, sized for the engines they will run
            self._size_actors(self._cluster)
        if auto_requeue:
            self.requeue_interrupted()

    def _workers(self, hosts: Sequence[tuple[EngineConfig, Any]]) -> list[DeviceWorker]:
        """A worker per (configuration, engine host)."""
        return [DeviceWorker(index, config, host, GenerateRunner(self.project, host, self._stage_times, self._cache,
                                                                 undoable_takes=self._undoable_takes,
                                                                 group_size=self._group_size,
                                                                 group_choice=self._choices.chosen))
                for index, (config, host) in enumerate(hosts)]

    def _group_size(self, key: str) -> int:
        """How many jobs of the re-roll ``key`` (:func:`undo_group_key`) make a take: its
        cancelled jobs (replaced, of a deleted turn, after a failed one) make none."""
        return sum(1 for job in self._queue.jobs(include_finished=True)
                   if job.status is not JobStatus.CANCELLED and undo_group_key(job) == key)

    def _size_actors(self, cluster: RayCluster) -> None:
        waiting = {job.engine for job in self._queue.jobs() if job.engine}
        cluster.size_for(self.registry, {self.default_engine, *waiting})

    def _cluster_ready(self, cluster: RayCluster) -> bool:
        """On the connection's thread: make the engine hosts and their workers, which take
        the jobs queued meanwhile. False when the service stopped while connecting."""
        hosts = cluster.make_hosts(self.registry, self._base_config, self.default_engine)
        self._size_actors(cluster)
        workers = self._workers([(host.config, host) for host in hosts])
        cluster.on_lost = self._on_lost(cluster)
        with self._queue.cond:
            if self._queue.stopping:
                return False
            self._cluster = cluster
            self.config = hosts[0].config
            self.device = self.config.describe()
            self.devices = [host.device for host in hosts]
            self._pool.add_workers(workers)
        if self._reconnect:
            threading.Thread(target=self._watch, args=(cluster,), name="kamishibai-cluster-watch", daemon=True).start()
        return True

    def _watch(self, cluster: RayCluster) -> None:
        """Look at the cluster's head every :data:`WATCH_S` seconds while it is the one in
        use: a farm lost while nothing runs there is found (and joined again) too."""
        while not self._stopped.wait(WATCH_S):
            if self._cluster is not cluster or cluster.lost:
                return
            cluster.head_lost()

    def _on_lost(self, cluster: RayCluster) -> Callable[[str], None]:
        return lambda why: self._cluster_lost(cluster, why)

    def _cluster_lost(self, cluster: RayCluster, why: str) -> None:
        """On the thread that found ``cluster`` gone: its workers take no more jobs (the job
        each ran goes back to the queue; the queued jobs stay queued), and with
        ``reconnect`` the studio starts joining it again."""
        self._pool.retire(cluster.hosts)
        if self._reconnect:
            self._start_retry(why)

    def _start_retry(self, why: str) -> RetrySchedule | None:
        """The schedule that joins the lost cluster again (the one under way, if any)."""
        from studio.worker.cluster.retry import RetrySchedule

        with self._queue.cond:
            if self._queue.stopping:
                return None
            if self._retry is not None:
                return self._retry
            self._lost_why = why
            self._retry = retry = RetrySchedule(self._join_again)
            self._pool.expecting = True  # queued jobs wait for the cluster's hosts to come back
        retry.start()
        return retry

    def _join_again(self) -> bool:
        """One attempt (on the retry's thread) to join the lost cluster again: let go of the
        old connection first (once), then join as when the project opened. True when done
        (joined, or the service stopped)."""
        from studio.worker.cluster.connection import ClusterConnection
        from studio.worker.cluster.status import ConnectionState

        lost = self._cluster
        if lost is not None:
            if not self._pool.join_retired(RETIRED_WAIT_S):
                log.warning("a job on the lost render farm has not ended; joining it again anyway")
            lost.leave()
            with self._queue.cond:
                if self._cluster is lost:
                    self._cluster = None
        with self._queue.cond:
            if self._queue.stopping or self._spec is None:
                return True
            spec = self._spec
        connection = ClusterConnection(spec, self._cluster_ready)
        self._connection = connection  # read by cluster_status() on other threads: one assignment
        connection.start()
        connection.join(None)
        if connection.state is not ConnectionState.CONNECTED:
            return False
        with self._queue.cond:
            self._retry = None
            self._lost_why = ""
        log.info("the render farm (%s) answers again; queued jobs go there", spec.where)
        return True

    def _start_stopped_actors(self) -> bool:
        """The engine actors of the joined cluster that could not start try again; False when
        none had stopped so."""
        cluster = self._cluster
        if cluster is None or cluster.lost:
            return False
        again = [host for host in cluster.hosts if host.start_again()]
        if again:
            self._pool.restart_threads()
        return bool(again)

    def _new_connection(self, cluster: ClusterSpec) -> ClusterConnection:
        from studio.worker.cluster.connection import ClusterConnection

        return ClusterConnection(cluster, self._cluster_ready, failed=lambda _error: self._pool.give_up_expecting())

    def connect_again(self, cluster: ClusterSpec | None = None) -> bool:
        """Try joining the cluster again after an attempt failed, or after the cluster was
        lost: Ray installed since, the cluster started again, or its address fixed in the
        settings (``cluster``: the spec to use now; default, the same one). The queued jobs
        start once it answers. Joined, the engine actors that could not start try again (their
        nodes fixed since). False when there is nothing to retry: not on a cluster, or still
        connecting, or connected with every actor started."""
        from studio.worker.cluster.status import ConnectionState

        with self._queue.cond:
            if self._queue.stopping:
                return False
            if cluster is not None and self._spec is not None:
                self._spec = cluster
            retry = self._retry
        lost = self._cluster
        if retry is None and lost is not None and lost.lost:  # lost where nothing retries by itself
            retry = self._start_retry(lost.lost)
        if retry is not None:
            retry.now()
            return True
        if self._start_stopped_actors():
            return True
        connection = self._connection
        if connection is None or connection.state is not ConnectionState.FAILED:
            return False
        again = self._new_connection(cluster if cluster is not None else connection.spec)
        self._pool.expect_workers()
        self._connection = again  # read by cluster_status() on other threads: one assignment
        again.start()
        return True

    def set_reroll_selects(self, on: bool) -> None:
        """Whether a re-roll of a turn with later turns selects its new take (default: no)."""
        self._pool.set_reroll_selects(on)

    @property
    def default_engine(self) -> str:
        return self._operations.default_engine

    @default_engine.setter
    def default_engine(self, name: str) -> None:
        self._operations.default_engine = name

    # -- life cycle -------------------------------------------------------------------

    def start(self) -> None:
        """Start a worker thread per device (idempotent), and join the cluster when it is
        joined in the background."""
        self._pool.start()
        if self._connection is not None:
            self._connection.start()

    def stop(self, cancel_running: bool = False, timeout: float | None = 30.0, *,
             interrupt_running: bool = False, reason: str = "") -> bool:
        """Stop the worker after its current job, or stop that job within one engine step:
        ``cancel_running`` ends it as cancelled, ``interrupt_running`` as interrupted (it
        runs again, with its seed, after :meth:`requeue_interrupted` or ``auto_requeue``),
        its error ``reason`` when given (what stopped it: "Stopped by Ctrl+C."), else the
        words for a studio that stopped.

        Queued jobs stay queued in the project. Returns False if the thread is still busy
        after ``timeout`` seconds. Open ``events()`` iterators end.
        """
        self._stopped.set()
        retry = self._retry
        if retry is not None:
            retry.stop()
        if not self._pool.stop(cancel_running, interrupt_running, timeout, reason):
            return False
        self.writer.stop()
        self._bus.close_streams()
        return True

    @property
    def running(self) -> bool:
        """True while a worker thread is alive."""
        return self._pool.alive

    def pause(self) -> None:
        """Start no new job (the running one finishes). The queued jobs of turns deleted
        meanwhile are cancelled now: no turn of theirs will come up while it is paused."""
        with self._queue.cond:
            self._queue.paused = True
            self._queue.cond.notify_all()
        self._cancel_deleted_turns()

    def _document_changed(self, changes: ChangeSet) -> None:
        """On the thread that changed the document (the writer): tell the subscribers, and
        while paused cancel the queued jobs of the turns the change deleted (a running queue
        cancels each when its turn comes up, at once if nothing runs before it); queue again
        those of the turns it brought back (an undone delete), paused or not."""
        self._bus.publish(DocumentChanged(changes))
        if self._queue.paused and changes.removed.get(EntityKind.NODE):
            self._cancel_deleted_turns()
        restored = changes.added.get(EntityKind.NODE)
        if restored:
            self._requeue_restored_turns(restored)

    def _cancel_deleted_turns(self) -> None:
        try:
            self._queue.cancel_deleted_turns()
        except Exception:  # the delete itself is done and stored; the jobs end when their turn comes up
            log.exception("could not cancel the queued jobs of deleted turns")

    def _requeue_restored_turns(self, node_ids: Collection[str]) -> None:
        """Turns that came back (an undone delete: same ids): the jobs their delete cancelled
        are queued again, so that an accidental delete and its undo lose no generation."""
        try:
            self._queue.requeue_restored_turns(node_ids)
        except Exception:  # the undo itself is done and stored; the jobs can still be retried
            log.exception("could not queue again the jobs of the turns brought back")

    def resume(self) -> None:
        with self._queue.cond:
            self._queue.paused = False
            self._queue.cond.notify_all()

    @property
    def paused(self) -> bool:
        return self._queue.paused

    def __enter__(self) -> GenerationService:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop(cancel_running=True)

    # -- events -----------------------------------------------------------------------

    def subscribe(self, callback: Callable[[JobEvent], None]) -> Callable[[], None]:
        """Call ``callback(event)`` for every job event; returns the unsubscribe function.

        Called on the thread that made the event (keep it short)."""
        return self._bus.subscribe(only_jobs(callback))

    def subscribe_all(self, callback: EventCallback) -> Callable[[], None]:
        """The one path from the worker to a window: every job event and every document
        change (:class:`~studio.worker.events.DocumentChanged`), in the order they happened,
        on the thread that made them."""
        return self._bus.subscribe(callback)

    def events(self) -> EventStream:
        """``async for event in service.events()``: delivered on the calling event loop."""
        return self._bus.stream()

    # -- queries ----------------------------------------------------------------------

    def jobs(self, include_finished: bool = False) -> list[Job]:
        """The queue in display order, as of the last change (never waits)."""
        return self._queue.jobs(include_finished)

    def job(self, job_id: str) -> Job:
        return self._queue.job(job_id)

    def where(self, job_id: str) -> str:
        """Where job ``job_id`` runs now (its device, such as ``cuda:1``, or the render farm's
        node and actor); "" when it does not run here. In memory: never waits."""
        return self._queue.where(job_id)

    def blocked(self) -> dict[str, Job]:
        """Each queued job that waits for an interrupted job (directly or through other
        queued jobs), with that interrupted job: it won't run until that one is retried,
        queued again (:meth:`requeue_interrupted`) or cancelled. The CLI's ``queue`` lists
        these as *blocked*. From the last published queue (never waits)."""
        return blocked_jobs({job.id: job for job in self._queue.jobs()})

    def blocked_by(self, job_id: str) -> Job | None:
        """The interrupted job that queued job ``job_id`` waits for (see :meth:`blocked`);
        None when nothing blocks it."""
        return self.blocked().get(job_id)

    def task_result(self, job_id: str) -> Any:
        """What a finished task's function returned (None for generate jobs)."""
        return self._queue.results.get(job_id)

    def engine_status(self) -> EngineStatus:
        """The first device's engine (see :meth:`engine_statuses` for every device); none
        while the cluster's hosts are still to come."""
        workers = self._pool.workers
        return workers[0].host.status() if workers else EngineStatus.holding(None, self.device)

    def engine_statuses(self) -> list[EngineStatus]:
        return [worker.host.status() for worker in self._pool.workers]

    def engine_pids(self) -> list[int | None]:
        """Each device's engine process id (None: no process runs, or in-process hosts)."""
        return [getattr(worker.host, "pid", None) for worker in self._pool.workers]

    def cluster_status(self) -> ClusterStatus | None:
        """The cluster's resources and each actor's state, or how joining it goes (None
        when not on a cluster). In memory: safe to call from the window's thread."""
        from studio.worker.cluster.status import ConnectionState

        cluster, connection, retry = self._cluster, self._connection, self._retry
        if cluster is not None:
            status = cluster.status()
        elif connection is not None:
            status = connection.status()
        else:
            return None
        if retry is None or status.state is ConnectionState.CONNECTED:
            return status
        if status.state is ConnectionState.CONNECTING:
            return replace(status, attempts=retry.attempts)
        from studio.worker.cluster.retry import RETRY_HINT

        why = self._lost_why or status.error
        if status.state is ConnectionState.FAILED and status.error:
            why = f"{why}. Last attempt: {status.error}"
        return replace(status, state=ConnectionState.LOST, error=why, hint=RETRY_HINT,
                       retry_in_s=retry.retry_in_s(), attempts=retry.attempts)

    def wait_connected(self, timeout: float | None = None) -> bool:
        """Wait until joining the cluster in the background has ended (joined or failed;
        :meth:`cluster_status` says which). True at once when there is nothing to join."""
        return self._connection.join(timeout) if self._connection is not None else True

    def preload(self, engine: str) -> list[float]:
        """Load ``engine`` on every cluster actor now (before a timed run); the seconds each
        took. Nothing to do (an empty list) with local hosts, which load on first use."""
        cluster = self._cluster
        if cluster is None:
            return []
        return [host.preload(engine) for host in cluster.hosts]

    def unload_engine(self) -> bool:
        """Unload every device's engine now if no job is running (to free GPU memory)."""
        with self._queue.cond:
            if self._pool.running_ids():
                return False
            for worker in self._pool.workers:
                worker.host.unload()
            return True

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no job runs and none can start (paused, empty, or all waiting on
        interrupted jobs). True if idle, False on timeout."""
        return self._pool.wait_idle(timeout)

    def wait_jobs(self, job_ids: Iterable[str], timeout: float | None = None) -> bool:
        """Wait until every job in ``job_ids`` is done, failed or cancelled."""
        return self._pool.wait_jobs(job_ids, timeout)

    def failed_at_start(self) -> list[Job]:
        """The waiting jobs failed when the service opened the queue, because they could
        never start: an engine the studio does not have, a job that depends on itself
        (through others), stored settings that are not names with values. Each job's
        ``error`` says which (the project's ``problems`` too)."""
        return [job for job in self._queue.settled_at_start if job.status is JobStatus.FAILED]

    def cancelled_at_start(self) -> list[Job]:
        """The waiting jobs cancelled when the service opened the queue, because the job
        they wait for had failed or was cancelled."""
        return [job for job in self._queue.settled_at_start if job.status is JobStatus.CANCELLED]

    def deleted_turns_at_start(self) -> list[Job]:
        """The waiting jobs cancelled when the service opened the queue, because their turn
        was deleted since they were queued (each one's ``error`` says so)."""
        return list(self._queue.deleted_at_start)

    def unrunnable_engines(self, engines: Iterable[str] | None = None) -> dict[str, list[Requirement]]:
        """Every engine of ``engines`` (default: those of the queued jobs) that no device of
        this service can run, with the reasons (a missing weight file, no CUDA device...).
        Their jobs stay queued, for a machine that can run them; :meth:`wait_idle` does not
        wait for them."""
        if engines is None:
            engines = [job.engine for job in self._queue.jobs() if job.status is JobStatus.QUEUED
                       and job.kind is JobKind.GENERATE]
        out: dict[str, list[Requirement]] = {}
        for name in dict.fromkeys(engines):
            reasons = self._pool.unmet(name)
            if reasons:
                out[name] = reasons
        return out

    def check_engine(self, name: str) -> list[Requirement]:
        """Every reason ``name`` can't run with this service's configuration."""
        return self.registry.check(name, self.config)

    # -- operations (a command and its jobs) --------------------------------------------

    def generate(self, parent_id: str, text: str, *, engine: str | None = None, seed: int | None = None,
                 settings: Mapping[str, Any] | None = None, priority: int = 0) -> tuple[str, str]:
        """Add a turn under ``parent_id`` and queue its first take. Returns (node id, job id)."""
        return self._operations.generate(parent_id, text, engine=engine, seed=seed, settings=settings,
                                         priority=priority)

    def reroll(self, node_id: str, *, engine: str | None = None, seed: int | None = None,
               settings: Mapping[str, Any] | None = None, priority: int = 0,
               replace_interrupted: bool = False) -> str:
        """Queue a new take of ``node_id`` (a new random seed unless ``seed`` is given).

        ``replace_interrupted``: the turn's interrupted jobs are cancelled in the same writer
        operation, each saying which new job replaced it (:meth:`replaced_by` lists them), and
        the jobs that waited for them wait for the new one: queued again, each would only add
        another take, and left alone they keep the queue from ever being done."""
        return self._operations.reroll(node_id, engine=engine, seed=seed, settings=settings, priority=priority,
                                       replace_interrupted=replace_interrupted)

    def reroll_many(self, node_id: str, count: int, *, engine: str | None = None,
                    settings: Mapping[str, Any] | None = None, priority: int = 0) -> list[str]:
        """Queue ``count`` new takes of ``node_id`` at once, each with a new random seed. Their
        takes are undone as one step while nothing else comes between them (calling
        :meth:`reroll` ``count`` times gives a step each)."""
        return self._operations.reroll_many(node_id, count, engine=engine, settings=settings, priority=priority)

    def reroll_branch(self, node_id: str, *, engine: str | None = None, seed: int | None = None,
                      settings: Mapping[str, Any] | None = None, priority: int = 0,
                      only: Collection[str] | None = None) -> list[str]:
        """Re-roll ``node_id`` and every turn below it, parent before child (with ``only``:
        just those of these turns, such as the ones a new take made stale).

        Each child's job waits for its parent's job (or the nearest re-rolled turn above it)
        and is generated from the parent's new take (the context is built when the job
        starts). A turn left out that has a job of its own queued or running: the re-rolled
        turns below it wait for that job, whose take they continue from. From the story's
        start, every turn is re-rolled.

        The jobs still waiting to make takes of the re-rolled turns (a Fill not started yet,
        an earlier re-roll) are cancelled in the same writer operation, each saying which new
        job replaced it (:meth:`replaced_by` lists them): run after the re-roll, each would add
        a take made from the turn's old past and select it, making the turns below stale. A
        job already running (on this service's devices) is left to finish, and the new job of
        its turn waits for it to end, so that the re-rolled take is made and selected last; if
        it is interrupted instead, it is not queued again (:meth:`requeue_interrupted` cancels
        it, :meth:`retry` refuses it), and no job the re-roll replaced can be retried.
        """
        return self._operations.reroll_branch(node_id, engine=engine, seed=seed, settings=settings,
                                              priority=priority, only=only)

    def choose_and_reroll(self, node_id: str, take_id: str, *, only: Collection[str], chosen: str = "the take",
                          engine: str | None = None, settings: Mapping[str, Any] | None = None,
                          priority: int = 0) -> list[str]:
        """Use another take of ``node_id`` and re-roll from it the later turns ``only`` (the ones
        it makes stale), as :meth:`reroll_branch` does, as one undo step: one Undo gives the turn
        its former take back and takes back every re-rolled take that landed. ``chosen`` names
        the take in the step's label ("Use take 2 of turn 3 and re-roll 2 turns")."""
        return self._operations.choose_and_reroll(node_id, take_id, chosen=chosen, engine=engine,
                                                  settings=settings, priority=priority, only=only)

    def replaced_by(self, job_id: str) -> list[Job]:
        """The waiting jobs that job ``job_id`` of a branch re-roll replaced (cancelled) in this
        session: when it was queued, in run order, then the interrupted ones
        :meth:`requeue_interrupted` cancelled for it; empty for any other job."""
        with self._queue.cond:
            replaced = list(self._queue.replaced.get(job_id, ()))
        return [job for job in (self._queue.get(old_id) for old_id in replaced) if job is not None]

    def fill(self, leaf_id: str, *, engine: str | None = None, settings: Mapping[str, Any] | None = None,
             priority: int = 0) -> list[str]:
        """Queue a take for every turn on the root-to-``leaf_id`` branch that has no done take.

        Turns are generated in order (each job waits for the one above it); a turn that
        already has a queued or running job is not queued twice.
        """
        return self._operations.fill(leaf_id, engine=engine, settings=settings, priority=priority)

    def submit_task(self, label: str, fn: TaskFunction, node_id: str | None = None, *, priority: int = 0) -> str:
        """Run ``fn(progress, cancelled)`` on a worker thread, in queue order, with job
        events like any job (used for exports). Not stored: lost when the app quits."""
        return self._operations.submit_task(label, fn, node_id, priority)

    def retry(self, job_id: str, *, seed: int | None = None, same_seed: bool = False) -> str:
        """Queue a failed, cancelled or interrupted job again as a new job (same node,
        engine and settings; a new seed unless ``seed`` or ``same_seed`` says otherwise).

        The jobs that waited for it (the rest of a chain) wait for the new job instead, and
        an interrupted job is marked cancelled (replaced), in one transaction: the chain
        resumes in order. The jobs its cancel or failure cancelled are queued again after it
        (with their own seeds); a job the user cancelled is not. The new job waits for the job
        the old one waited for, if that one has yet to run.

        Refused (:class:`StudioError`, naming the job) for a job of a turn that a branch re-roll
        queued since makes the take of (:meth:`reroll_branch`): run after it, the retry would
        take the selection back and make the re-rolled turns below stale."""
        return self._operations.retry(job_id, seed, same_seed)

    # -- changing the queue -------------------------------------------------------------

    def requeue_interrupted(self, only: Collection[str] | None = None) -> list[str]:
        """Queue every interrupted job again (with ``only``, those of these ids), with its own
        seed and place in the queue; one whose turn a branch re-roll queued since makes the take
        of is cancelled instead, saying which job replaced it (:meth:`replaced_by` lists it)."""
        return [job.id for job in self._queue.requeue_interrupted(only)]

    def interrupted_without_take(self, node_ids: Collection[str]) -> list[str]:
        """The interrupted generate jobs of those of ``node_ids`` that have no finished take,
        each turn's newest: what `fill` runs again instead of queueing a second job beside it
        (the turns below wait for the interrupted job, so a second one left them waiting)."""
        tree = self.project.tree
        newest: dict[str, Job] = {}
        for job in sorted(self._queue.jobs(include_finished=True), key=lambda j: j.sequence):
            if job.kind is JobKind.GENERATE and job.node_id is not None and job.node_id in node_ids:
                newest[job.node_id] = job
        return [job.id for node_id, job in newest.items()
                if job.status is JobStatus.INTERRUPTED and node_id in tree.nodes
                and not any(take.status is TakeStatus.DONE for take in tree.takes_of(node_id))]

    def clear_finished(self) -> int:
        """Forget done, failed and cancelled jobs (their takes stay)."""
        return self._queue.clear_finished(lambda job_id: self._pool.tasks.pop(job_id, None))

    def cancel(self, job_id: str) -> bool:
        """Cancel a queued or interrupted job now, or a running one within one engine step.

        Jobs that depend on it are cancelled too. False if it had already finished."""
        return self._queue.cancel(job_id)

    def undo_stopping_its_jobs(self) -> tuple[ChangeSet | None, list[str]]:
        """Undo the newest step; when it holds the takes of a re-roll whose jobs still wait or
        run, cancel those jobs first (on the writer, before the undo: a take finishing meanwhile
        is not added after it), so that the whole re-roll is taken back and no take of it lands
        made from a take the undo removed. Returns the undo's changes and the jobs it stopped."""
        def change() -> tuple[ChangeSet | None, list[str]]:
            history = self.project.document.history
            key = history.done[-1].group if history.done else ""
            active = (JobStatus.QUEUED, JobStatus.RUNNING, JobStatus.INTERRUPTED)
            group = [self._queue.get(job.id) for job in self._queue.jobs() if key and undo_group_key(job) == key]
            running = [job.id for job in group if job is not None and job.status in active]
            for job_id in running:
                job = self._queue.get(job_id)
                if job is not None and job.status in active:  # not cancelled with a job it waited for
                    self._queue.cancel(job_id)
            return self.project.undo(), running

        return self.writer.call(change)

    def move(self, job_id: str, index: int) -> None:
        """Move a queued job to ``index`` in the run order (0 runs next), as the order is when
        the move runs on the writer; :meth:`move_by` for a move made from what a view showed.

        The job takes the priority of its new neighbours when its own doesn't fit there."""
        self._queue.move(job_id, index)

    def move_by(self, job_id: str, steps: int) -> None:
        """Move a queued job ``steps`` places later in the run order (earlier when negative;
        past the first or last, it stops there). The places are counted among the jobs queued
        when the move runs on the writer, so a job that started or ended since the caller read
        the queue (or an earlier move not shown yet) does not make it land a place off.
        :class:`StudioError` when the job is no longer queued."""
        self._queue.move_by(job_id, steps)

    def set_priority(self, job_id: str, priority: int) -> None:
        """Change a queued (or interrupted) job's priority: higher runs first."""
        self._queue.set_priority(job_id, priority)
