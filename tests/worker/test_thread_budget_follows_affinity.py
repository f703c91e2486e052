"""Devices share the cores this process may run on (its CPU affinity: a container, a
``taskset``, a batch scheduler's slot), not all the cores of the machine."""

from __future__ import annotations

import os

import pytest

from studio.engines.config import EngineConfig
from studio.worker.device_worker import parse_devices
from studio.worker.thread_budget import share_cores, thread_budget_environment


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity on this system")
def test_devices_share_the_cores_they_may_run_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 64)  # the machine
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})  # what this process is allowed
    shared = share_cores(parse_devices("cpu,cpu"))
    # two engine processes of 32 threads each on 4 cores fought over them (OMP_NUM_THREADS=32)
    assert [config.threads for config in shared] == [2, 2]
    assert thread_budget_environment(shared[0].threads)["OMP_NUM_THREADS"] == "2"
    given = share_cores([EngineConfig.parse("cpu", threads=3), EngineConfig.parse("cpu"), EngineConfig.parse("cpu")])
    assert [config.threads for config in given] == [3, 1, 1]
