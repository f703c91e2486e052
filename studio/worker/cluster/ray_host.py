"""The parent's side of one engine host on a Ray cluster (see :mod:`.actor`).

It behaves like the local engine process for the device workers: ``execute`` sends the job,
follows its progress, and returns the result, now with the take's files written into the
project here, by the studio's one writer process, each atomically. The runner then checks
them against the checksums the actor computed and commits the take as for any host.

An actor that dies mid-job (its process killed, its node gone) raises
:class:`HostLostError`: the job goes back to the queue. Ray restarts the actor (its
``max_restarts``); until it answers again, this host takes no job (:meth:`wait_ready`),
so that a live host picks the returned job up. An actor Ray gave up on is replaced.

A cancel is sent to the actor once; an actor that has not answered it within
``CANCEL_GRACE_S`` (stuck in a call that never looks) is killed, as the local engine
process is: the job ends as cancelled through the same host-lost path, and a fresh actor
takes the next job.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from studio.core.progress import CancelCheck, Cancelled
from studio.engines.config import EngineConfig
from studio.engines.registry import EngineRegistry
from studio.engines.requirements import Requirement
from studio.storage.atomic import write_bytes_atomic
from studio.storage.paths import UnsafePathError, resolve_inside
from studio.worker.cluster.actor import ActorInfo, Encoded
from studio.worker.cluster.status import ActorState, ActorView
from studio.worker.engine_host import EngineStatus, HostJobError, HostLostError
from studio.worker.engine_process import CANCEL_GRACE_S, Failed, Loaded, Predicted, StageProgress, WasCancelled
from studio.worker.failures import Failure
from studio.worker.host_job import HostJob, HostListener, HostResult, MediaFile


class ActorSource(Protocol):
    """What a host needs of its cluster (the backend's ``RayCluster``)."""

    ray: Any
    """The imported ``ray`` module."""

    @property
    def connected(self) -> bool: ...

    def new_actor(self, config: EngineConfig) -> Any: ...

    def refresh_resources(self) -> None: ...

    # optional: ``head_lost() -> str``, why the whole cluster is gone ("" while its head answers)
    # (a look at the head), and ``lost: str``, the same as last found (no look)

log = logging.getLogger(__name__)

POLL_S = 0.02
"""How often the parent looks at the job's cancel check while waiting for the actor."""
READY_POLL_S = 2.0
"""How long one look at a restarting actor waits for it to answer."""
START_WAIT_WARN_S = 30.0
"""How long an actor may wait for the cluster to give it its CPU or GPU before the log says
so (it takes no job meanwhile: the other actors run them)."""
MAX_START_FAILURES = 3
"""Actors that die this many times in a row while a host waits for one: the host stops for
good, saying why (a node without the studio, say); the queued jobs stay queued."""
CANNOT_START_HINT = ("Install the same version of the studio, with its engines and their weights, on every "
                     "node (`kamishibai doctor` on a node says what it lacks).")
FARM_LOST_HINT = "Nothing of this take was kept; the job runs once the render farm answers again."
TIMING_KEYS = ("cluster_roundtrip_s", "cluster_actor_s")
"""Timings a cluster job adds to its take: the job's round trip seen from here, and the
time the actor spent on it (the difference is what the cluster costs per job)."""


class RayHost:
    """One engine host on the cluster. Only the device's worker thread calls
    :meth:`execute` and :meth:`wait_ready`; :meth:`status`, :meth:`view` and :attr:`pid`
    may be read from any thread."""

    def __init__(self, cluster: ActorSource, index: int, registry: EngineRegistry, config: EngineConfig) -> None:
        self.cluster = cluster
        self.index = index
        self.registry = registry
        self.config = config
        self._actor: Any = None
        self._info: ActorInfo | None = None
        self._engine: tuple[str, str] | None = None
        self._state = ActorState.STARTING
        self._job_id = ""
        self._lock = threading.Lock()
        self._checks: dict[str, list[Requirement]] = {}
        self._lost = False
        self._starting: Any = None
        """The first call to a new actor (its ``info``), while it has not answered."""
        self._cannot_start = ""
        """Why this host's actor could not start ("" while it could): then the host takes no
        job, for good (its thread ends), and the queued jobs stay queued."""
        self._start_lock = threading.Lock()
        """Held while an actor is made: the worker's thread (waiting for its actor before a
        job) and a check from another thread (the command line asks every host) both start
        it. Each made one, and the handle overwritten was dropped, so Ray ended that actor,
        while the host kept the other's answer: its jobs went to an actor that never ran."""
        self.restarts = 0

    # -- what others read ---------------------------------------------------------------------

    @property
    def device(self) -> str:
        return f"ray:{self.index}"

    def where(self) -> str:
        """Where this host's jobs run, in words: ``farm node 10.0.0.3 · actor 2 · GPU 0`` (the
        node as Ray names it; the GPUs Ray gave the actor, if any), or ``farm · actor 2``
        before its actor has answered."""
        info = self._info
        if info is None:
            return f"farm · actor {self.index}"
        node = f"farm node {info.node}" if info.node else "farm"
        gpus = f" · GPU {','.join(info.gpu_ids)}" if info.gpu_ids else ""
        return f"{node} · actor {self.index}{gpus}"

    @property
    def pid(self) -> int | None:
        """The actor's process id (on its node; None before it started)."""
        info = self._info
        return info.pid if info is not None else None

    def status(self) -> EngineStatus:
        with self._lock:
            engine = self._engine
        return EngineStatus.holding(engine, self.device)

    def view(self) -> ActorView:
        with self._lock:
            info, state, engine, job_id = self._info, self._state, self._engine, self._job_id
        device = ""
        if info is not None:
            device = ("GPU " + ",".join(info.gpu_ids)) if info.gpu_ids else "CPU"
        return ActorView(index=self.index, state=state, node=info.node if info else "", device=device,
                         pid=info.pid if info else None, engine=engine[0] if engine else "", job_id=job_id,
                         restarts=self.restarts, error=self._cannot_start)

    def needs_load(self, name: str) -> bool:
        with self._lock:
            return self._engine is None or self._engine[0] != name

    def _set(self, state: ActorState, job_id: str | None = None) -> None:
        with self._lock:
            self._state = state
            if job_id is not None:
                self._job_id = job_id

    # -- the actor ----------------------------------------------------------------------------

    def start(self, timeout: float | None = None) -> None:
        """Start the actor now and wait until it answers (else the first job does). An
        actor that can't start (the studio or an engine missing on its node, its import
        failing) raises :class:`ActorStartError` saying which actor, on which node, and
        why; the host then stays stopped (a second actor would fail the same way). With
        ``timeout``, Ray's ``GetTimeoutError`` once it has not answered by then (the cluster
        has no room for it yet); a later call waits for the same actor."""
        ray = self.cluster.ray
        with self._start_lock:  # one actor, whichever threads ask at once
            if self._cannot_start:
                raise ActorStartError(self._cannot_start)
            if self._actor is not None and self._info is not None:
                return
            if self._actor is None:
                self._set(ActorState.STARTING)
                self._actor = self.cluster.new_actor(self.config)
                self._starting = None
            if self._starting is None:
                self._starting = self._actor.info.remote()
            actor, starting = self._actor, self._starting
        try:
            info = ray.get(starting, timeout=timeout)
        except ray.exceptions.ActorDiedError as error:
            with self._start_lock:
                if self._actor is actor:
                    self._actor = self._starting = None
            raise ActorStartError(self._stop_for_good(error)) from None
        with self._start_lock:
            if self._actor is not actor:  # replaced meanwhile: its successor answers for itself
                return
            self._starting = None
            with self._lock:
                self._info = info
                self._state = ActorState.IDLE
        self.cluster.refresh_resources()

    def _stop_for_good(self, error: BaseException) -> str:
        """This host's actor could not start (``error``, Ray's): the host takes no more
        jobs, saying so once in the log (which actor, which node, why, what to do).
        Returns why. A whole cluster that went away is said as that, not as this actor."""
        if self._cluster_gone():
            return f"The render farm was lost ({self._farm_lost()})"
        with self._start_lock:
            first = not self._cannot_start
            if first:
                node = _node_of(error)
                where = f" on node {node}" if node else ""
                self._cannot_start = (f"Engine actor {self.index} could not start{where}: "
                                      f"{_first_line(error)}")
            why = self._cannot_start
        self._set(ActorState.STOPPED)
        if first:
            log.warning("%s. It takes no job; the queued jobs stay queued for the other actors. %s", why,
                        CANNOT_START_HINT)
        return why

    def _wait_started(self, stopping: Callable[[], bool]) -> bool:
        """Before the first job: wait (while not ``stopping``) for the actor to start. One
        the cluster has no room for yet (more actors asked for than its CPUs or GPUs hold)
        stays pending, maybe for good: a job given to it waited with it, and the check made
        under the queue's lock held every other actor too, so the whole queue stood still.
        Now such a host takes no job; the log says why after :data:`START_WAIT_WARN_S`. An
        actor that can't start at all stops this host for good (False), saying why: its
        first job used to fail with the reason, and the jobs after it were cancelled, though
        none had started; now they stay queued, for the other actors or the next run."""
        if self._info is not None:
            return True
        ray = self.cluster.ray
        began = time.monotonic()
        said = False
        while not stopping():
            try:
                self.start(timeout=READY_POLL_S)
            except ray.exceptions.GetTimeoutError:
                if self._cluster_gone():
                    return False
                if not said and time.monotonic() - began >= START_WAIT_WARN_S:
                    said = True
                    self._set(ActorState.WAITING)
                    log.warning("Engine actor %s has waited %d s for the cluster to give it %s; it takes no "
                                "job meanwhile, the other actors run them. Ask for fewer actors (--actors, or "
                                "Actors in Settings > Render farm) or add nodes to the cluster.", self.index,
                                time.monotonic() - began, self._asks())
                continue
            except ActorStartError:
                return False  # said in the log; the queued jobs stay queued
            except ray.exceptions.RayError:
                return True  # the job tries: an actor lost under it sends it back to the queue
            return True
        return False

    def _asks(self) -> str:
        """What this host's actor asks the cluster for ("1 CPU", "1 CPU and 1 GPU")."""
        cpus = getattr(getattr(self.cluster, "spec", None), "cpus_per_actor", None)
        per_gpu = getattr(self.cluster, "gpus_per_actor", None)
        gpus = per_gpu() if callable(per_gpu) else 0
        asks = [f"{cpus:g} CPU" if cpus else "its CPU"] + ([f"{gpus:g} GPU"] if gpus else [])
        return " and ".join(asks)

    def check(self, engine: str) -> list[Requirement]:
        """Why ``engine`` can't run on this host's actor (asked once per engine)."""
        cached = self._checks.get(engine)
        if cached is not None:
            return cached
        try:
            # an actor still waiting for the cluster's room is not waited for here (this runs under the queue's lock)
            self.start(timeout=0 if self._starting is not None else READY_POLL_S)
            reasons: list[Requirement] = list(self.cluster.ray.get(self._actor.check.remote(engine)))
        except self.cluster.ray.exceptions.GetTimeoutError:
            # still starting (or waiting for room): unknown for now, asked again next time
            log.info("actor %s has not started yet; engine %s is checked later", self.index, engine)
            return []
        except ActorStartError:
            return []  # said once when it failed; this host takes no job
        except (HostJobError, self.cluster.ray.exceptions.RayError) as error:
            # unknown: let the job try, and fail with the actor's reason rather than wait forever
            log.warning("could not check engine %s on actor %s: %s", engine, self.index, error)
            return []
        self._checks[engine] = reasons
        return reasons

    def wait_ready(self, stopping: Callable[[], bool]) -> bool:
        """After a loss: wait (while not ``stopping``) for Ray's restart of the actor, or
        start a new one if Ray gave up on it."""
        if self._farm_lost():
            self._set(ActorState.STOPPED)
            return False
        if self._cannot_start:
            return False
        if not self._lost:
            return self._wait_started(stopping)
        ray = self.cluster.ray
        self._set(ActorState.RESTARTING)
        deaths = 0
        while not stopping():
            try:
                if self._actor is None:
                    self._actor, self._starting = self.cluster.new_actor(self.config), None
                info = ray.get(self._actor.info.remote(), timeout=READY_POLL_S)
            except ray.exceptions.GetTimeoutError:
                if self._cluster_gone():
                    return False
                continue
            except ray.exceptions.ActorDiedError as error:
                deaths += 1
                self._actor = None
                if self._cluster_gone():
                    return False
                if deaths >= MAX_START_FAILURES:  # stopped for good, saying why: the jobs stay queued
                    self._lost = False
                    self._stop_for_good(error)
                    return False
                log.warning("the cluster's actor %s is gone for good; starting another", self.index)
                time.sleep(0.2)
                continue
            except ray.exceptions.RayError as error:  # still restarting, or the whole cluster is gone
                if self._cluster_gone():
                    return False
                log.info("actor %s not back yet: %s", self.index, error)
                time.sleep(0.2)
                continue
            with self._lock:
                self._info = info
                self._state = ActorState.IDLE
            self._lost = False
            self.cluster.refresh_resources()
            return True
        return False

    def _farm_lost(self) -> str:
        """Why the whole cluster was found gone ("" while it was not): no look at it."""
        return str(getattr(self.cluster, "lost", ""))

    def _cluster_gone(self) -> bool:
        """Whether the whole cluster went away (its head no longer answers), not just this
        host's actor: then no restart will come, and this host stops (its thread ends; the
        queued jobs stay queued, and the cluster's status says it was lost)."""
        head_lost = getattr(self.cluster, "head_lost", None)
        if head_lost is None or not head_lost():
            return False
        self._set(ActorState.STOPPED)
        return True

    def preload(self, engine: str) -> float:
        """Load ``engine`` on the actor now; returns the seconds it took there."""
        self.start()
        self._set(ActorState.LOADING)
        try:
            seconds = float(self.cluster.ray.get(self._actor.load.remote(engine)))
        finally:
            self._set(ActorState.IDLE)
        version = self.registry.info(engine).version if engine in self.registry else ""
        with self._lock:
            self._engine = (engine, version)
        return seconds

    # -- a job --------------------------------------------------------------------------------

    def execute(self, job: HostJob, listener: HostListener, cancelled: CancelCheck) -> HostResult:
        ray = self.cluster.ray
        began = time.perf_counter()
        stage = "start"
        try:
            try:
                self.start()
            except ActorStartError as error:  # the job never started: back to the queue, not failed
                raise HostLostError(f"{error.message}; the job went back to the queue.",
                                    hint=CANNOT_START_HINT) from None
            self._set(ActorState.RUNNING if not self.needs_load(job.engine) else ActorState.LOADING, job.take_id)
            stream = self._actor.run.remote(job)
            asked_at: float | None = None
            while True:
                if asked_at is None and cancelled():
                    self._actor.cancel.remote(job.take_id)
                    asked_at = time.monotonic()
                if asked_at is not None and time.monotonic() - asked_at > CANCEL_GRACE_S:
                    self._end_stuck(stage)
                if self._farm_lost():  # its actor may never answer again (a network that dropped)
                    self._lost_with_farm(stage)
                ready, _ = ray.wait([stream], timeout=POLL_S)
                if not ready:
                    continue
                try:
                    message = ray.get(next(stream))
                except StopIteration:
                    raise HostLostError(f"The cluster's actor {self.index} ended the job without a result.") from None
                if isinstance(message, StageProgress):
                    stage = message.stage
                    listener.progress(message.stage, message.progress)
                elif isinstance(message, Loaded):
                    with self._lock:
                        self._engine = (message.name, message.version)
                    self._set(ActorState.RUNNING)
                    stage = "predict"
                    listener.loaded(message.seconds)
                elif isinstance(message, Predicted):
                    stage = "decode"
                    listener.predicted(message.prediction)
                elif isinstance(message, Encoded):
                    stage = "transfer"
                    return self._commit_files(job, message, began)
                elif isinstance(message, Failed):
                    if message.failure.out_of_memory:
                        with self._lock:
                            self._engine = None
                    raise HostJobError(message.failure)
                elif isinstance(message, WasCancelled):
                    raise Cancelled()
        except ray.exceptions.RayError as error:
            self._lost_during(stage, error)
            raise AssertionError("unreachable") from None
        finally:
            with self._lock:
                self._job_id = ""
                if self._state in (ActorState.RUNNING, ActorState.LOADING):
                    self._state = ActorState.IDLE

    def _lost_during(self, stage: str, error: BaseException) -> None:
        if self._cluster_gone():
            self._lost_with_farm(stage)
        lost = self._mark_lost()
        message = f"The cluster's {lost} was lost during {stage}: {type(error).__name__}."
        log.warning("%s %s", message, error)
        raise HostLostError(message, hint="The job went back to the queue; the next free actor runs it.")

    def _lost_with_farm(self, stage: str) -> None:
        """The whole cluster went away under the job: it goes back to the queue, saying so
        (not "the actor was lost", which would promise that another actor runs it now)."""
        self._mark_lost()
        self._set(ActorState.STOPPED)
        message = f"The render farm was lost during {stage} ({self._farm_lost()}); the job went back to the queue."
        log.info("%s", message)  # the runner's warning says it, naming the job: once is enough
        raise HostLostError(message, hint=FARM_LOST_HINT)

    def _end_stuck(self, stage: str) -> None:
        """End an actor that did not answer a cancel within :data:`CANCEL_GRACE_S` (stuck in
        a call that never looks at its cancel check), as the local engine process is ended.
        It is killed for good, not restarted: what it held may be what is stuck, so
        :meth:`wait_ready` starts a fresh one for the next job. Raises :class:`HostLostError`,
        which the runner counts as cancelled, since the job was."""
        actor, self._actor, self._starting = self._actor, None, None
        lost = self._mark_lost()
        message = (f"The cluster's {lost} did not stop within {CANCEL_GRACE_S:g} s of a cancel during {stage}; "
                   "it was ended.")
        log.warning("%s", message)
        if actor is not None:
            try:
                self.cluster.ray.kill(actor, no_restart=True)
            except Exception:  # the cluster may be gone already: a new actor is started anyway
                log.info("could not end actor %s", self.index, exc_info=True)
        self.cluster.refresh_resources()
        raise HostLostError(message, hint="Nothing of this take was kept; the next job gets a fresh actor.")

    def _mark_lost(self) -> str:
        """Note that this host's actor is gone (this host takes no job until
        :meth:`wait_ready` has one again); returns how to name the lost actor."""
        self._lost = True
        self.restarts += 1
        with self._lock:
            self._engine = None
            self._state = ActorState.RESTARTING
        return self._ran_on(self._info.pid) if self._info else f"actor {self.index}"

    def _commit_files(self, job: HostJob, encoded: Encoded, began: float) -> HostResult:
        """Write the actor's three files into the project (each atomically) and return the
        result naming them, with the actor's checksums for the runner to verify."""
        files: list[MediaFile] = []
        for item in encoded.files:
            if not item.path.startswith(job.media_dir + "/") or "/" in item.path[len(job.media_dir) + 1:]:
                raise HostJobError(_failure(f"The cluster's actor named a file outside the take's folder: "
                                            f"{item.path}."))
            try:
                target = resolve_inside(Path(job.media_root), item.path)
            except UnsafePathError:
                raise HostJobError(_failure(f"The cluster's actor named an unsafe file: {item.path}.")) from None
            write_bytes_atomic(target, item.data)
            files.append(MediaFile(path=item.path, size=len(item.data), sha256=item.sha256))
        result = encoded.result
        timings = dict(result.timings)
        timings[TIMING_KEYS[0]] = round(time.perf_counter() - began, 4)
        timings[TIMING_KEYS[1]] = encoded.actor_s
        return HostResult(prediction=result.prediction, representation=files[0], clip=files[1], poster=files[2],
                          engine_version=result.engine_version, timings=timings, ran_on=self._ran_on(encoded.pid))

    def _ran_on(self, pid: int) -> str:
        """``actor 1 (pid 4242 on 10.0.0.3, Ray actor 5f0c…)``: the process that made a take."""
        info = self._info
        node = f" on {info.node}" if info and info.node else ""
        ray_id = f", Ray actor {info.actor_id}" if info and info.actor_id else ""
        return f"actor {self.index} (pid {pid}{node}{ray_id})"

    # -- life cycle ---------------------------------------------------------------------------

    def unload(self) -> None:
        actor = self._actor
        if actor is None:
            return
        try:
            self.cluster.ray.get(actor.unload.remote(), timeout=30)
        except self.cluster.ray.exceptions.RayError:
            log.info("could not unload actor %s", self.index, exc_info=True)
        with self._lock:
            self._engine = None

    def start_again(self) -> bool:
        """Let a host whose actor could not start try once more (its node was fixed since, say,
        and the user asked to retry): True if it had stopped so. Its worker's thread is then
        started again by the pool, and the actor starts before its first job."""
        with self._start_lock:
            if not self._cannot_start:
                return False
            self._cannot_start = ""
            self._actor = self._starting = None
            self._lost = False
        self._set(ActorState.STARTING)
        log.info("engine actor %s tries to start again", self.index)
        return True

    def forget(self) -> None:
        """Drop the actor without a word to the cluster (a cluster that was lost: nothing
        there answers, and a call could wait for it)."""
        self._actor = self._starting = None
        with self._lock:
            self._engine = None
            self._info = None
            self._state = ActorState.STOPPED

    def close(self) -> None:
        """End the actor (its resources go back to the cluster)."""
        actor = self._actor
        self.forget()
        if self._farm_lost():
            return
        if actor is not None and self.cluster.connected:
            try:
                self.cluster.ray.kill(actor, no_restart=True)
            except Exception:  # the cluster may be gone already
                log.info("could not end actor %s", self.index, exc_info=True)
        self.cluster.refresh_resources()


class ActorStartError(HostJobError):
    """A host's actor could not start (its ``__init__`` raised on its node, or its process
    kept dying before it answered): the host stops for good, its jobs stay queued."""

    def __init__(self, message: str) -> None:
        super().__init__(Failure(message, hint=CANNOT_START_HINT))


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_NODE = re.compile(r"\bip=([0-9A-Za-z.:\[\]-]+?)[,)\s]")


def _first_line(error: BaseException) -> str:
    """The line of a Ray error that says why (its last: the error raised on the node)."""
    lines = [line.strip() for line in _ANSI.sub("", str(error)).splitlines() if line.strip()]
    return (lines[-1] if lines else type(error).__name__)[:300]


def _node_of(error: BaseException) -> str:
    """The node a Ray error names (``ip=10.0.0.3`` in its text), or ""."""
    found = _NODE.search(_ANSI.sub("", str(error)))
    return found.group(1) if found else ""


def _failure(message: str) -> Failure:
    return Failure(message, hint="Nothing of this take was kept. Use the same version of the studio on every node.")
