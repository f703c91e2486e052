"""One worker per device: its configuration, engine host, runner and thread."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from studio.core.errors import StudioError
from studio.engines.base import EngineConfig
from studio.engines.registry import EngineRegistry
from studio.engines.requirements import Requirement, RequirementKind
from studio.worker.engine_host import Host, HostMode, InProcessHost
from studio.worker.runner import GenerateRunner


@dataclass(eq=False)
class DeviceWorker:
    """A device's worker. Its thread runs one job at a time; ``running_id`` is guarded by
    the service's lock."""

    index: int
    config: EngineConfig
    host: Host
    runner: GenerateRunner
    thread: threading.Thread | None = None
    running_id: str | None = None
    fits: dict[str, bool] = field(default_factory=dict)
    """Whether an engine can run here, by name (cleared when jobs are queued)."""
    retired: bool = False
    """Its host is gone for good (a render farm that was lost): it takes no more jobs, and a
    job it returns to the queue is not counted against that job. Guarded by the queue's lock."""

    @property
    def device(self) -> str:
        return self.config.describe()

    @property
    def where(self) -> str:
        """Where this worker's jobs run, in words: its host's own account when it has one (a
        render farm's node and actor), else its device (``cpu``, ``cuda:1``)."""
        where = getattr(self.host, "where", None)
        return str(where()) if callable(where) else self.device

    def can_run(self, registry: EngineRegistry, engine: str) -> bool:
        fit = self.fits.get(engine)
        if fit is None:
            check = getattr(self.host, "check", None)  # a remote host checks where it runs
            fit = engine in registry and not (check(engine) if check is not None
                                              else registry.check(engine, self.config))
            self.fits[engine] = fit
        return fit

    def unmet(self, registry: EngineRegistry, engine: str) -> list[Requirement]:
        """Every reason ``engine`` can't run here ([] when it can)."""
        if engine not in registry:
            known = ", ".join(registry.names()) or "none"
            return [Requirement(RequirementKind.CONFIG, f"Unknown engine {engine!r}.",
                                hint=f"Available engines: {known}.")]
        check = getattr(self.host, "check", None)
        return list(check(engine)) if check is not None else registry.check(engine, self.config)

    def wait_ready(self, stopping: Callable[[], bool]) -> bool:
        """Before taking a job: wait for a host that is coming back (a cluster actor being
        restarted), so that a job its death returned to the queue goes to a live host.
        False if ``stopping()`` became true meanwhile."""
        wait = getattr(self.host, "wait_ready", None)
        return True if wait is None else bool(wait(stopping))


def make_host(mode: HostMode, registry: EngineRegistry, config: EngineConfig) -> Host:
    if mode is HostMode.IN_PROCESS:
        return InProcessHost(registry, config)
    from studio.worker.engine_process import ProcessHost

    return ProcessHost(registry, config)


def parse_devices(spec: str | Sequence[str], *, checkpoints: object = None, dtype: str = "auto",
                  threads: int | None = None) -> list[EngineConfig]:
    """``cpu,cuda:0,cuda:1`` (or ``cpu,cpu``: two CPU workers) as one configuration per
    worker. A worker's placement per stage is written ``predict=cuda:0;decode=cuda:1``."""
    parts = [spec] if isinstance(spec, str) else list(spec)
    items = [item.strip() for part in parts for item in part.split(",")]
    if not any(items):
        raise StudioError("No devices given.", hint="Use e.g. --devices cpu or --devices cuda:0,cuda:1.")
    if not all(items):
        shown = ",".join(parts)
        raise StudioError(f"An empty entry in the device list {shown!r}.",
                          hint="Separate devices with one comma each, e.g. cpu,cpu or cuda:0,cuda:1.")
    configs = []
    for item in items:
        placement = item.replace(";", ",")
        if checkpoints is None:
            configs.append(EngineConfig.parse(placement, dtype=dtype, threads=threads))
        else:
            configs.append(EngineConfig.parse(placement, checkpoints=checkpoints,  # type: ignore[arg-type]
                                              dtype=dtype, threads=threads))
    return configs
