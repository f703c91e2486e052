"""How the CPU cores are shared when several devices' engine processes run at once, and
with the window.

Kept apart from the device workers so that the engine process (which applies the budget
before an engine imports torch) and the service (which hands it out) both use it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

from studio.engines.base import EngineConfig
from studio.engines.config import usable_cores


def share_cores(configs: Sequence[EngineConfig], cores: int | None = None) -> list[EngineConfig]:
    """Each device's share of the CPU cores when several devices run at once.

    Every device's engine process runs its own thread pools (torch, OpenMP, BLAS); left to
    themselves, two of them on two cores would each start two threads and fight over the
    cores. A configuration without ``threads`` gets ``cores // devices`` (at least 1);
    one device alone keeps the engine's own choice. ``cores`` defaults to the cores this
    process may run on (:func:`~studio.engines.config.usable_cores`), not the machine's: in
    a container or under ``taskset`` the devices share the cores they have."""
    if len(configs) < 2:
        return list(configs)
    budget = max(1, (cores or usable_cores()) // len(configs))
    return [config if config.threads is not None else replace(config, threads=budget) for config in configs]


def thread_budget_environment(threads: int | None) -> dict[str, str]:
    """Environment that caps the thread pools of libraries loaded after it is set."""
    if threads is None:
        return {}
    value = str(threads)
    return {name: value for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                     "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")}


ENGINE_NICE_VARIABLE = "KAMISHIBAI_ENGINE_NICE"
"""Set by the window's process: the engine processes it starts run this much nicer."""


def lower_engine_priority(pid: int) -> int:
    """Lower an engine process's CPU priority as the window asked (see
    :data:`ENGINE_NICE_VARIABLE`): ``pid`` runs that much nicer than this process, so that
    on a machine with few cores the window's thread gets the CPU first and stays
    responsive while an engine (and the ffmpeg encoders it starts, which inherit the
    priority) keep the cores busy. Headless runs set nothing and keep the normal priority.
    Returns the increment applied.

    The parent calls it as soon as the process exists, not the engine process itself
    once it runs: starting Python and importing the engines takes a few hundred
    milliseconds of CPU, which would otherwise compete with the window at its own
    priority just when a batch starts. On Linux the process also moves to the idle
    scheduling class (see :func:`use_idle_scheduling`): a nicer process alone still keeps a
    core until its time slice ends, and the window's thread, woken by its timer, waits in
    the run queue."""
    try:
        increment = int(os.environ.get(ENGINE_NICE_VARIABLE, "0"))
    except ValueError:
        return 0
    if increment <= 0 or not hasattr(os, "setpriority"):
        return 0
    try:
        os.setpriority(os.PRIO_PROCESS, pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + increment))
    except OSError:
        return 0
    use_idle_scheduling(pid)
    return increment


def use_idle_scheduling(thread_id: int = 0) -> bool:
    """Put a thread (0: the calling one; a process's id names its main thread) in Linux's
    ``SCHED_IDLE`` class; threads and processes it starts later inherit it. Returns
    whether it is there now.

    A thread of the normal class that wakes up takes a core from an idle-class thread at
    once, and the kernel counts a core that runs only idle-class threads as free when it
    places a waking thread. Within the window's own process group that is what background
    work should yield. Where the kernel first shares the cores between sessions or apps
    (Linux's autogroup, a desktop's per-app cgroups) other programs don't starve it any
    more than before; on a machine without that grouping, normal-class work anywhere
    comes first. Elsewhere nothing changes."""
    policy = getattr(os, "SCHED_IDLE", None)
    if policy is None or not hasattr(os, "sched_setscheduler"):
        return False
    try:
        os.sched_setscheduler(thread_id, policy, os.sched_param(0))
    except OSError:
        return False
    return True
