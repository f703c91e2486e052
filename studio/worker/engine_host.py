"""The engine a worker thread holds: loaded once, kept between jobs, swapped on demand.

Only the worker thread calls :meth:`EngineHost.acquire`; :meth:`status` may be called
from any thread.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from studio.engines.base import Engine, EngineRegistry

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class EngineStatus:
    """Which engine the worker holds, whether its weights are loaded, and where."""

    name: str | None
    loaded: bool
    device: str
    version: str = ""


class EngineHost:
    def __init__(self, registry: EngineRegistry, device: str) -> None:
        self.registry = registry
        self.device = device
        self._engine: Engine | None = None
        self._name: str | None = None
        self._lock = threading.Lock()

    def acquire(self, name: str) -> tuple[Engine, float]:
        """The engine ``name``, loaded on the device; returns it and the seconds spent loading.

        Switching to another engine unloads the previous one first (GPU memory is scarce).
        """
        with self._lock:
            engine, current = self._engine, self._name
        if engine is not None and current == name and _is_loaded(engine):
            return engine, 0.0
        if engine is not None and current != name:
            self.unload()
            engine = None
        if engine is None:
            engine = self.registry.create(name)
            with self._lock:
                self._engine, self._name = engine, name
        start = time.perf_counter()
        engine.load(self.device)
        return engine, time.perf_counter() - start

    def unload(self) -> None:
        with self._lock:
            engine, self._engine, self._name = self._engine, None, None
        if engine is not None:
            try:
                engine.unload()
            except Exception:  # unloading after an error is best effort
                log.exception("unloading engine %s failed", getattr(engine, "name", "?"))

    def status(self) -> EngineStatus:
        with self._lock:
            engine, name = self._engine, self._name
        if engine is None:
            return EngineStatus(name=None, loaded=False, device=self.device)
        return EngineStatus(name=name, loaded=_is_loaded(engine), device=self.device,
                            version=str(getattr(engine, "version", "")))


def _is_loaded(engine: Engine) -> bool:
    try:
        return bool(engine.loaded)
    except Exception:  # a broken engine counts as not loaded
        return False
