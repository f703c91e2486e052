"""Engine hosts: where a worker's engine is loaded and run.

A host takes a :class:`HostJob` (built by the worker from the document), loads the
engine once and keeps it between jobs, runs predict and decode, writes the take's files
and returns a :class:`HostResult`; the worker commits the take row. Two kinds:

- :class:`InProcessHost` runs the engine on the worker's own thread. The engine process
  runs one of these; the window uses it directly only where chosen (tests, fake engines).
- :class:`~studio.worker.engine_process.ProcessHost` runs it in a child process, so a
  GIL-heavy loop or a crash never freezes or kills the window.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from studio.core.errors import StudioError
from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled, never_cancelled, no_progress
from studio.engines.base import Engine, EngineConfig, EngineError, EngineInfo, EngineSettings, Prediction
from studio.engines.registry import EngineRegistry
from studio.worker.failures import Failure
from studio.worker.host_job import HostJob, HostListener, HostPrediction, HostResult
from studio.worker.results import jsonable, write_media_files

log = logging.getLogger(__name__)


class HostMode(StrEnum):
    """Where a worker runs its engine."""

    PROCESS = "process"
    """A child process per device (the app's choice)."""
    IN_PROCESS = "in-process"
    """The worker's own thread (tests, engines that can't be rebuilt in a child)."""


@dataclass(frozen=True, slots=True)
class EngineStatus:
    """Which engine the worker holds, whether its weights are loaded, and where."""

    name: str | None
    loaded: bool
    device: str
    version: str = ""

    @classmethod
    def holding(cls, engine: tuple[str, str] | None, device: str) -> EngineStatus:
        """The status of a host holding ``engine`` (its name and version; None: nothing loaded)."""
        if engine is None:
            return cls(name=None, loaded=False, device=device)
        return cls(name=engine[0], loaded=True, device=device, version=engine[1])


class HostJobError(StudioError):
    """A job failed in the host; ``failure`` says how (out of memory included)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message, failure.hint)
        self.failure = failure


class HostLostError(StudioError):
    """The host went away mid-job (a cluster node or actor died), not the job's fault: the
    job goes back to the queue for another host, with nothing of it kept."""


class Host(Protocol):
    """What the worker needs of an engine host (see the module's docstring)."""

    registry: EngineRegistry
    config: EngineConfig

    @property
    def device(self) -> str: ...

    def needs_load(self, name: str) -> bool: ...

    def execute(self, job: HostJob, listener: HostListener, cancelled: CancelCheck) -> HostResult: ...

    def unload(self) -> None: ...

    def status(self) -> EngineStatus: ...

    def close(self) -> None: ...


class InProcessHost:
    """Runs the engine on the calling thread. Only one worker thread calls
    :meth:`acquire` and :meth:`execute`; :meth:`status` may be called from any thread."""

    def __init__(self, registry: EngineRegistry, config: EngineConfig) -> None:
        self.registry = registry
        self.config = config
        self._engine: Engine | None = None
        self._name: str | None = None
        self._lock = threading.Lock()

    @property
    def device(self) -> str:
        return self.config.describe()

    def needs_load(self, name: str) -> bool:
        with self._lock:
            engine, current = self._engine, self._name
        return engine is None or current != name or not _is_loaded(engine)

    def acquire(self, name: str, progress: ProgressCallback = no_progress,
                cancelled: CancelCheck = never_cancelled) -> tuple[Engine, float]:
        """The engine ``name``, loaded as configured; returns it and the seconds spent loading.

        Switching to another engine unloads the previous one first (GPU memory is scarce).
        A load that fails or is cancelled is unloaded again, so it leaves nothing behind.
        """
        with self._lock:
            engine, current = self._engine, self._name
        if engine is not None and current == name and _is_loaded(engine):
            return engine, 0.0
        if engine is not None and current != name:
            self.unload()
            engine = None
        if engine is None:
            engine = self.registry.create(name, self.config)
            with self._lock:
                self._engine, self._name = engine, name
        start = time.perf_counter()
        try:
            engine.load(progress, cancelled)
        except BaseException:
            self.unload()
            raise
        return engine, time.perf_counter() - start

    def execute(self, job: HostJob, listener: HostListener, cancelled: CancelCheck) -> HostResult:
        info = self.registry.info(job.engine)
        settings = info.settings.from_values(job.settings, ignore_unknown=True)
        engine, load_s = self.acquire(job.engine, _stage(listener, "load"), cancelled)
        listener.loaded(load_s)
        return run_generation(engine, info, settings, job, listener, cancelled)

    def unload(self) -> None:
        with self._lock:
            engine, self._engine, self._name = self._engine, None, None
        if engine is not None:
            try:
                engine.unload()
            except Exception:  # unloading after an error is best effort
                log.exception("unloading engine %s failed", engine.info.name)

    def status(self) -> EngineStatus:
        with self._lock:
            engine, name = self._engine, self._name
        if engine is None:
            return EngineStatus(name=None, loaded=False, device=self.device)
        return EngineStatus(name=name, loaded=_is_loaded(engine), device=self.device, version=engine.info.version)

    def close(self) -> None:
        self.unload()


EngineHost = InProcessHost
"""The name this class had before engines could run in their own process."""


def _stage(listener: HostListener, stage: str) -> Callable[[Progress], None]:
    def report(progress: Progress) -> None:
        listener.progress(stage, progress)
    return report


def _seconds(start: float) -> float:
    return round(time.perf_counter() - start, 4)


def run_generation(engine: Engine, info: EngineInfo, settings: EngineSettings, job: HostJob,
                   listener: HostListener, cancelled: CancelCheck) -> HostResult:
    """predict -> decode -> write the files, with progress and cancel checks between."""
    timings: dict[str, float] = {}
    check_cancelled(cancelled)
    start = time.perf_counter()
    prediction = engine.predict(job.context, job.instruction, settings, job.seed, _stage(listener, "predict"),
                                cancelled)
    timings["predict_s"] = _seconds(start)
    check_representation(info, prediction)
    space = info.capabilities.representation.space
    kept = HostPrediction(deltas=prediction.deltas, motion_level=prediction.motion_level,
                          warnings=tuple(prediction.warnings), conditioning=jsonable(prediction.conditioning),
                          representation=prediction.representation, space=space)
    listener.predicted(kept)
    check_cancelled(cancelled)

    start = time.perf_counter()
    clip = engine.decode(prediction, settings, job.seed, _stage(listener, "decode"), cancelled)
    timings["decode_s"] = _seconds(start)
    check_cancelled(cancelled)

    start = time.perf_counter()
    metadata = {"engine": job.engine, "engine_version": info.version, "take_id": job.take_id,
                "node_id": job.node_id, "seed": job.seed, "representation_space": space}
    write = _stage(listener, "write")
    representation, clip_file, poster = write_media_files(
        job.media_root, job.media_dir, prediction, clip, metadata,
        lambda done, total: write(Progress(done, total)))
    timings["write_s"] = _seconds(start)
    return HostResult(prediction=kept, representation=representation, clip=clip_file, poster=poster,
                      engine_version=info.version, timings=timings)


def check_representation(info: EngineInfo, prediction: Prediction) -> None:
    """The engine's representation has the shape its info declares (else it can't be read back)."""
    spec = info.capabilities.representation
    shape = tuple(getattr(prediction.representation, "shape", ()))
    if shape != tuple(spec.shape):
        raise EngineError(f"The {info.name} engine made a representation of shape {shape}; its info declares "
                          f"{tuple(spec.shape)} ({spec.space}).", hint="This is a bug in the engine.")


def _is_loaded(engine: Engine) -> bool:
    try:
        return bool(engine.loaded)
    except Exception:  # a broken engine counts as not loaded
        return False
