"""How the CPU cores are shared when several devices' engine processes run at once.

Kept apart from the device workers so that the engine process (which applies the budget
before an engine imports torch) and the service (which hands it out) both use it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

from studio.engines.base import EngineConfig


def share_cores(configs: Sequence[EngineConfig], cores: int | None = None) -> list[EngineConfig]:
    """Each device's share of the CPU cores when several devices run at once.

    Every device's engine process runs its own thread pools (torch, OpenMP, BLAS); left to
    themselves, two of them on two cores would each start two threads and fight over the
    cores. A configuration without ``threads`` gets ``cores // devices`` (at least 1);
    one device alone keeps the engine's own choice."""
    if len(configs) < 2:
        return list(configs)
    budget = max(1, (cores or os.cpu_count() or 1) // len(configs))
    return [config if config.threads is not None else replace(config, threads=budget) for config in configs]


def thread_budget_environment(threads: int | None) -> dict[str, str]:
    """Environment that caps the thread pools of libraries loaded after it is set."""
    if threads is None:
        return {}
    value = str(threads)
    return {name: value for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                     "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")}
