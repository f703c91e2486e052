"""The engine process: a device's engine in a child process (multiprocessing, spawn).

The parent (a worker thread of the window or the CLI) sends a :class:`HostJob` over a
pipe; the child loads the engine once, keeps it loaded between jobs, and answers with
progress, the prediction and the written files. Cancel is a shared event the child's
engine checks every step. A child that dies (SIGKILL, a segfault in a CUDA driver) fails
the running job with the signal and the stage it was in; the next job starts a fresh
child. The pipe only ever carries pickles between this parent and its own child.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import selectors
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.context import SpawnProcess
from multiprocessing.synchronize import Event
from typing import Any

from studio.core.errors import StudioError
from studio.core.progress import CancelCheck, Cancelled, Progress
from studio.engines.config import EngineConfig
from studio.engines.registry import EngineRegistry, registry_from_source
from studio.worker.engine_host import ENGINE_BUG_HINT, EngineStatus, HostJobError, InProcessHost
from studio.worker.failures import Failure, describe_failure, release_gpu_memory
from studio.worker.host_job import HostJob, HostListener, HostPrediction, HostResult
from studio.worker.parent_watch import PARENT_GONE_EXIT_CODE, end_with_parent
from studio.worker.thread_budget import lower_engine_priority

log = logging.getLogger(__name__)

POLL_S = 0.02
"""How often the parent looks at the job's cancel check while the child works."""
STOP_TIMEOUT_S = 5.0
CANCEL_GRACE_S = 10.0
"""How long a child may go on after its job was cancelled before the parent ends it: an
engine looks at its cancel check every step, so one that has not answered by then is
stuck in a call that never looks (a driver call, a deadlock in a native library)."""
PROGRESS_INTERVAL_S = 0.05
"""Least time between two progress messages of a stage from the engine process."""

STAGE_WORDS = {"start": "start-up", "load": "loading", "predict": "predict", "decode": "decode",
               "write": "the media write"}


# -- messages (parent -> child) ----------------------------------------------------------

@dataclass(frozen=True)
class RunJob:
    job: HostJob


@dataclass(frozen=True)
class Unload:
    pass


# -- messages (child -> parent) ----------------------------------------------------------

@dataclass(frozen=True)
class Ready:
    pid: int


@dataclass(frozen=True)
class StageProgress:
    stage: str
    progress: Progress


@dataclass(frozen=True)
class Loaded:
    name: str
    version: str
    seconds: float


@dataclass(frozen=True)
class Predicted:
    prediction: HostPrediction


@dataclass(frozen=True)
class Done:
    result: HostResult


@dataclass(frozen=True)
class Failed:
    failure: Failure


@dataclass(frozen=True)
class WasCancelled:
    pass


class EngineProcessError(StudioError):
    """The registry can't be rebuilt in a child process."""


def describe_exit(exitcode: int | None) -> str:
    """``exited with signal 9 (SIGKILL)`` or ``exited with code 1``."""
    if exitcode is None:
        return "stopped answering"
    if exitcode < 0:
        try:
            name = f" ({signal.Signals(-exitcode).name})"
        except ValueError:
            name = ""
        return f"exited with signal {-exitcode}{name}"
    if exitcode == 0:
        return "ended itself (exit code 0)"  # an engine or library that calls os._exit(0)
    return f"exited with code {exitcode}"


class ProcessHost:
    """The parent's side of one device's engine process. Only the device's worker thread
    calls :meth:`execute`; :meth:`status` and :meth:`pid` may be read from any thread."""

    def __init__(self, registry: EngineRegistry, config: EngineConfig) -> None:
        if not registry.source:
            raise EngineProcessError(
                "These engines can't run in an engine process: their registry names no source to rebuild it.",
                hint="Build the registry with EngineRegistry(source='module:function'), or use the in-process host.")
        self.registry = registry
        self.config = config
        self._context = multiprocessing.get_context("spawn")
        self._process: SpawnProcess | None = None
        self._conn: multiprocessing.connection.Connection | None = None
        self._cancel: Event | None = None
        self._lock = threading.Lock()
        self._engine: tuple[str, str] | None = None  # (name, version) the child has loaded
        self.restarts = 0

    @property
    def device(self) -> str:
        return self.config.describe()

    @property
    def pid(self) -> int | None:
        """The engine process's id (None when none runs)."""
        process = self._process
        return process.pid if process is not None and process.is_alive() else None

    def _held(self) -> tuple[str, str] | None:
        """The engine the child holds: none once the child is gone (killed while idle, by the
        user or the kernel's out-of-memory killer), whatever it had loaded."""
        with self._lock:
            engine, process = self._engine, self._process
        return engine if process is not None and process.is_alive() else None

    def needs_load(self, name: str) -> bool:
        engine = self._held()
        return engine is None or engine[0] != name

    def status(self) -> EngineStatus:
        return EngineStatus.holding(self._held(), self.device)

    def start(self) -> None:
        """Start the child now (else the first job does)."""
        if self._process is not None and self._process.is_alive():
            return
        if self._process is not None:  # it died between jobs: what it had loaded went with it
            self._forget()
        parent_end, child_end = self._context.Pipe(duplex=True)
        cancel = self._context.Event()
        process = self._context.Process(
            target=child_main, args=(child_end, cancel, self.registry.source, self.config),
            name=f"kamishibai-engine-{self.device}", daemon=True)
        with _interrupts_held():
            process.start()
        if process.pid is not None:
            lower_engine_priority(process.pid)  # before it imports anything
        child_end.close()
        self._process, self._conn, self._cancel = process, parent_end, cancel

    def execute(self, job: HostJob, listener: HostListener, cancelled: CancelCheck) -> HostResult:
        self.start()
        process, conn, cancel = self._process, self._conn, self._cancel
        assert process is not None and conn is not None and cancel is not None
        cancel.clear()
        stage = "start"
        try:
            conn.send(RunJob(job))
        except OSError:
            return self._died(stage)
        with selectors.DefaultSelector() as watch:  # made once per job: a poll every 20 ms stays cheap
            watch.register(conn.fileno(), selectors.EVENT_READ, "conn")
            watch.register(process.sentinel, selectors.EVENT_READ, "sentinel")
            return self._follow(watch, conn, cancel, listener, cancelled)

    def _follow(self, watch: selectors.BaseSelector, conn: multiprocessing.connection.Connection, cancel: Event,
                listener: HostListener, cancelled: CancelCheck) -> HostResult:
        stage = "start"
        cancelled_at: float | None = None
        while True:
            if cancelled_at is None and cancelled():
                cancel.set()
                cancelled_at = time.monotonic()
            if cancelled_at is not None and time.monotonic() - cancelled_at > CANCEL_GRACE_S:
                self._end_stuck(stage)
                raise Cancelled()
            ready = {key.data for key, _ in watch.select(timeout=POLL_S)}
            if not ready:
                continue
            if "conn" not in ready and not conn.poll():  # only the sentinel: the child is gone
                return self._died(stage)
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return self._died(stage)
            if isinstance(message, StageProgress):
                stage = message.stage
                listener.progress(message.stage, message.progress)
            elif isinstance(message, Loaded):
                with self._lock:
                    self._engine = (message.name, message.version)
                stage = "predict"
                listener.loaded(message.seconds)
            elif isinstance(message, Predicted):
                stage = "decode"
                listener.predicted(message.prediction)
            elif isinstance(message, Done):
                return message.result
            elif isinstance(message, Failed):
                if message.failure.out_of_memory:
                    with self._lock:
                        self._engine = None
                raise HostJobError(message.failure)
            elif isinstance(message, WasCancelled):
                raise Cancelled()

    def _died(self, stage: str) -> HostResult:
        process = self._process
        exitcode: int | None = None
        if process is not None:
            process.join(STOP_TIMEOUT_S)
            exitcode = process.exitcode
        self._forget()
        self.restarts += 1
        message = f"The engine process {describe_exit(exitcode)} during {STAGE_WORDS.get(stage, stage)}."
        log.warning("%s (device %s)", message, self.device)
        raise HostJobError(Failure(message, hint="Nothing of this take was kept; the next job starts a fresh "
                                  "engine process. Retry the job, or choose another engine or device."))

    def _end_stuck(self, stage: str) -> None:
        """End a child that did not answer a cancel within :data:`CANCEL_GRACE_S` (what it
        had loaded goes with it; the next job starts a fresh one)."""
        process = self._process
        log.warning("The engine process did not stop within %g s of a cancel during %s; it was ended (device %s).",
                    CANCEL_GRACE_S, STAGE_WORDS.get(stage, stage), self.device)
        if process is not None:
            process.kill()
            process.join(STOP_TIMEOUT_S)
        self._forget()
        self.restarts += 1

    def _forget(self) -> None:
        if self._conn is not None:
            self._conn.close()
        with self._lock:
            self._process, self._conn, self._cancel, self._engine = None, None, None, None

    def unload(self) -> None:
        """Unload the engine by ending its process: everything it held is given back."""
        self.close()

    def close(self) -> None:
        process, conn = self._process, self._conn
        if process is None:
            return
        try:
            if conn is not None:
                conn.close()  # the child reads end-of-file and exits after unloading
            process.join(STOP_TIMEOUT_S)
            if process.is_alive():
                process.kill()
                process.join(STOP_TIMEOUT_S)
        finally:
            with self._lock:
                self._process, self._conn, self._cancel, self._engine = None, None, None, None


class ForwardingListener:
    """Forwards what the engine reports to whoever runs the job (the engine process's pipe to
    its parent, a cluster actor's message queue). Progress is coalesced: a stage's first and
    last steps always go, others at most every :data:`PROGRESS_INTERVAL_S` (a message wakes the
    parent and becomes an event for the window, which redraws no faster)."""

    def __init__(self, send: Callable[[Any], None], host: InProcessHost, engine: str) -> None:
        self._send = send
        self._host = host
        self._engine = engine
        self._stage = ""
        self._sent_at = 0.0

    def progress(self, stage: str, progress: Progress) -> None:
        now = time.monotonic()
        edge = (stage != self._stage or progress.step <= 0 or progress.step >= progress.total
                or progress.preview is not None)
        if not edge and now - self._sent_at < PROGRESS_INTERVAL_S:
            return
        self._stage, self._sent_at = stage, now
        self._send(StageProgress(stage, progress))

    def loaded(self, seconds: float) -> None:
        self._send(Loaded(self._engine, self._host.status().version, seconds))

    def predicted(self, prediction: HostPrediction) -> None:
        self._send(Predicted(prediction))


_LEFT_TO_THE_PARENT = (signal.SIGINT, signal.SIGTERM)
"""Signals the engine process ignores: Ctrl+C reaches the whole foreground process group, and
`timeout`, systemd or a CI runner send SIGTERM to the whole group too. The command (or the
window) handles them, cancels the running job and then ends the engine process itself (by
closing its pipe, or with SIGKILL); an engine process killed by them first failed its job
("exited with signal 15") and the command cancelled the jobs queued after it."""

_HELD_SIGNALS = frozenset(_LEFT_TO_THE_PARENT) if hasattr(signal, "pthread_sigmask") else frozenset()


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Block SIGINT and SIGTERM in this thread while the engine process is started: the child
    inherits the mask, so a Ctrl-C while it imports (a second or more, before
    :func:`child_main` can ignore it) waits instead of killing it with a KeyboardInterrupt,
    which failed the job as if the engine had crashed. The parent gets a signal held here
    once it ends."""
    if not _HELD_SIGNALS:
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _keep_stdout_for_the_parent(keep: int = -1) -> None:
    """Send whatever the engine prints to standard output (model code's print(), a native
    library writing to file descriptor 1) to standard error instead: the child shares the
    parent's stdout, where ``play --json`` and ``queue --json`` print what scripts read.

    ``keep``: a descriptor the process needs (its pipe to the parent). A process started
    without a stdout may hold it as descriptor 1; that one is left alone (overwritten, the
    pipe was lost and the engine process died) and only Python's own printing is sent on."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        sys.stdout.flush()
    if keep == 1:
        sys.stdout = sys.stderr
        return
    try:
        os.dup2(2, 1)
    except OSError:  # no standard error to send it to: drop it rather than mix it into the parent's
        with contextlib.suppress(OSError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
    sys.stdout = sys.stderr


def describe_exit_call(error: SystemExit | KeyboardInterrupt, engine: str) -> Failure:
    """The failure of a job whose engine raised SystemExit (code that calls ``sys.exit()``)
    or KeyboardInterrupt (the engine process ignores Ctrl-C, so its own code raised it):
    the job fails, the engine process and its loaded engine stay."""
    detail = f": {error}" if str(error) else ""
    return Failure(f"The engine {engine!r} tried to end its process ({type(error).__name__}{detail}); the job "
                   "was failed instead.", hint=ENGINE_BUG_HINT)


def child_main(conn: multiprocessing.connection.Connection, cancel: Event, source: str,
               config: EngineConfig) -> None:
    """The engine process: serve jobs until the parent closes the pipe (or dies).

    The pipe alone does not end it when the parent dies: the engine only notices a closed
    pipe when it next sends progress, and a long load or a call into a driver sends none for
    minutes while it holds the engine's GPU memory (and may still write a take's files into
    a project the next run has already tidied); hence the watch on the parent."""
    end_with_parent(PARENT_GONE_EXIT_CODE)
    _keep_stdout_for_the_parent(keep=conn.fileno())
    for number in _LEFT_TO_THE_PARENT:  # the parent's to handle
        signal.signal(number, signal.SIG_IGN)
    if _HELD_SIGNALS:  # started with them blocked (one pending meanwhile is dropped by SIG_IGN)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD_SIGNALS)
    from studio.worker.thread_budget import thread_budget_environment

    os.environ.update(thread_budget_environment(config.threads))  # before an engine loads torch
    host = InProcessHost(registry_from_source(source), config)
    try:
        while True:
            try:
                message: Any = conn.recv()
            except (EOFError, OSError):
                return
            if isinstance(message, Unload):
                host.unload()
                continue
            if not isinstance(message, RunJob):
                continue
            job = message.job
            answer: Any
            try:
                answer = Done(host.execute(job, ForwardingListener(conn.send, host, job.engine), cancel.is_set))
            except Cancelled:
                answer = WasCancelled()
            except (SystemExit, KeyboardInterrupt) as error:  # engine code that calls sys.exit() fails its job
                answer = Failed(describe_exit_call(error, job.engine))
            except Exception as error:  # any engine error fails the job, never the process
                failure = describe_failure(error, job.engine, host.device)
                if failure.out_of_memory:
                    host.unload()
                    release_gpu_memory()
                answer = Failed(failure)
            try:
                conn.send(answer)
            except (BrokenPipeError, OSError):
                return
    finally:
        host.unload()
