"""The engine a worker thread holds: loaded once, kept between jobs, swapped on demand.

Only the worker thread calls :meth:`EngineHost.acquire`; :meth:`status` may be called
from any thread.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from studio.core.progress import CancelCheck, ProgressCallback, never_cancelled, no_progress
from studio.engines.base import Engine, EngineConfig
from studio.engines.registry import EngineRegistry

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class EngineStatus:
    """Which engine the worker holds, whether its weights are loaded, and where."""

    name: str | None
    loaded: bool
    device: str
    version: str = ""


class EngineHost:
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


def _is_loaded(engine: Engine) -> bool:
    try:
        return bool(engine.loaded)
    except Exception:  # a broken engine counts as not loaded
        return False
