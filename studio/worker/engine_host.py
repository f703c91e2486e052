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
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from studio.core.errors import StudioError
from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled, never_cancelled, no_progress
from studio.engines.base import (
    Clip,
    Engine,
    EngineConfig,
    EngineError,
    EngineInfo,
    EngineSettings,
    Prediction,
)
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
    check_prediction(info, prediction)
    space = info.capabilities.representation.space
    kept = HostPrediction(deltas=prediction.deltas, motion_level=prediction.motion_level,
                          warnings=tuple(prediction.warnings), conditioning=jsonable(prediction.conditioning),
                          representation=prediction.representation, space=space)
    listener.predicted(kept)
    check_cancelled(cancelled)

    start = time.perf_counter()
    clip = engine.decode(prediction, settings, job.seed, _stage(listener, "decode"), cancelled)
    timings["decode_s"] = _seconds(start)
    check_clip(info, clip)
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


ENGINE_BUG_HINT = "This is a bug in the engine: nothing of this take was kept. Try another seed or engine."
MAX_CLIP_FPS = 1000.0
"""More frames a second than any player shows: an engine that reports this has a bug."""


def check_prediction(info: EngineInfo, prediction: object) -> None:
    """What ``predict`` returned is a :class:`Prediction` whose representation can be kept
    and continued from (an engine bug is told as one, not as an error deep in the worker)."""
    if not isinstance(prediction, Prediction):
        raise EngineError(f"The {info.name} engine's predict returned {type(prediction).__name__}, not a "
                          "prediction.", hint=ENGINE_BUG_HINT)
    check_representation(info, prediction)


def check_representation(info: EngineInfo, prediction: Prediction) -> None:
    """The engine's representation is an array of real numbers, all finite, of the shape its
    info declares (else it can't be read back, or every later turn continues from NaN)."""
    import numpy as np  # here: the window imports this module, and an engine has numpy loaded by now

    spec = info.capabilities.representation
    array = prediction.representation
    if not isinstance(array, np.ndarray):
        raise EngineError(f"The {info.name} engine made a representation of type {type(array).__name__}, not an "
                          "array.", hint=ENGINE_BUG_HINT)
    shape = tuple(array.shape)
    if shape != tuple(spec.shape):
        raise EngineError(f"The {info.name} engine made a representation of shape {shape}; its info declares "
                          f"{tuple(spec.shape)} ({spec.space}).", hint=ENGINE_BUG_HINT)
    if array.dtype.kind not in "biuf":
        raise EngineError(f"The {info.name} engine made a representation of {array.dtype} values, not numbers.",
                          hint=ENGINE_BUG_HINT)
    bad = int(array.size - np.count_nonzero(np.isfinite(array)))
    if bad:
        raise EngineError(f"The {info.name} engine made a representation with {bad} of {array.size} values "
                          "not finite (NaN or infinity); the turns after it could not continue from it.",
                          hint=ENGINE_BUG_HINT)


def check_clip(info: EngineInfo, clip: object) -> None:
    """What ``decode`` returned is a :class:`Clip` with a frame rate a video can hold."""
    if not isinstance(clip, Clip):
        raise EngineError(f"The {info.name} engine's decode returned {type(clip).__name__}, not a clip.",
                          hint=ENGINE_BUG_HINT)
    fps = float(clip.fps)
    if not math.isfinite(fps) or not 0 < fps <= MAX_CLIP_FPS:
        raise EngineError(f"The {info.name} engine made a clip at {clip.fps} frames a second; a clip's frame rate "
                          f"is above 0 and at most {MAX_CLIP_FPS:g}.", hint=ENGINE_BUG_HINT)


def _is_loaded(engine: Engine) -> bool:
    try:
        return bool(engine.loaded)
    except Exception:  # a broken engine counts as not loaded
        return False
