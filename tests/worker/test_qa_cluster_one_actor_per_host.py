"""A host starts one actor, whichever threads ask for it at once.

The worker's thread starts its host's actor before taking a job, while the command line
checks the engine on every host from its own thread, which starts it too. Both made an
actor; the handle overwritten was dropped (Ray ends an actor nobody holds), and the host
kept one actor's answer with the other's handle: on a cluster with room for fewer actors
than asked for, the first job went to an actor that never started, and `kamishibai fill
--run --cluster auto --actors 3` on two cores stood still about one run in three."""

from __future__ import annotations

import itertools
import threading
import time
from types import SimpleNamespace
from typing import Any

from studio.composition import default_registry
from studio.engines.config import EngineConfig
from studio.worker.cluster.actor import ActorInfo
from studio.worker.cluster.ray_host import RayHost


class RayError(Exception):
    pass


class SlowRay:
    exceptions = SimpleNamespace(RayError=RayError, GetTimeoutError=type("GetTimeoutError", (RayError,), {}),
                                 ActorDiedError=type("ActorDiedError", (RayError,), {}))

    def get(self, ref: Any, timeout: float | None = None) -> Any:
        time.sleep(0.02)
        return ref


class Actor:
    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.info = SimpleNamespace(remote=lambda: ActorInfo(pid=pid, node="10.0.0.3"))
        self.check = SimpleNamespace(remote=lambda engine: [])


class SlowCluster:
    """A cluster whose ``new_actor`` takes a moment, as Ray's does (it registers the actor)."""

    connected = True

    def __init__(self) -> None:
        self.ray = SlowRay()
        self.made: list[Actor] = []
        self._pids = itertools.count(4242)

    def new_actor(self, config: EngineConfig) -> Actor:
        time.sleep(0.05)
        self.made.append(Actor(next(self._pids)))
        return self.made[-1]

    def refresh_resources(self) -> None:
        pass


def test_a_check_beside_the_worker_s_start_makes_no_second_actor() -> None:
    cluster = SlowCluster()
    host = RayHost(cluster, 0, default_registry(), EngineConfig())
    go = threading.Barrier(3)
    errors: list[BaseException] = []

    def worker() -> None:
        go.wait()
        try:
            assert host.wait_ready(lambda: False)
        except BaseException as error:  # reported below
            errors.append(error)

    def command_line() -> None:
        go.wait()
        try:
            assert host.check("sketch") == []
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=worker), threading.Thread(target=command_line)]
    for thread in threads:
        thread.start()
    go.wait()
    for thread in threads:
        thread.join(10)
    assert not errors, errors
    assert len(cluster.made) == 1, f"{len(cluster.made)} actors made for one host"
    assert host.pid == cluster.made[0].pid  # the answer is the held actor's own
    assert host._actor is cluster.made[0]
