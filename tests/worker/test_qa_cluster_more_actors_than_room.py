"""More engine actors asked for than the cluster has room for (``--actors 3`` on a machine
with 2 CPUs, 8 actors on a cluster of 4 GPUs).

Ray keeps an actor it has no room for pending, maybe for good. Its host took a job and
waited with it, and the engine check it made first ran under the queue's lock, so every
other actor waited too: `kamishibai fill --run --cluster local --actors 3` on 2 cores did
nothing, without a word, until it was killed. Now a host takes no job before its actor has
started (the other actors run them), checks don't wait for it, and the log says after a
while which actor waits and what to do."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from studio.composition import default_registry
from studio.engines.config import EngineConfig
from studio.storage import Project
from studio.worker import GenerationService, JobStatus
from studio.worker.cluster import ActorState, ClusterSpec
from studio.worker.cluster import ray_host as ray_host_module
from studio.worker.cluster.ray_host import RayHost


class RayError(Exception):
    pass


class GetTimeoutError(RayError, TimeoutError):
    pass


class ActorDiedError(RayError):
    pass


class PendingRay:
    """``ray`` for an actor the cluster never finds room for: its first call never answers."""

    exceptions = SimpleNamespace(RayError=RayError, GetTimeoutError=GetTimeoutError, ActorDiedError=ActorDiedError)

    def __init__(self) -> None:
        self.waits: list[float | None] = []

    def get(self, ref: Any, timeout: float | None = None) -> Any:
        self.waits.append(timeout)
        if timeout is None:
            raise AssertionError("an endless wait for an actor that may never start")
        time.sleep(min(timeout, 0.01))
        raise GetTimeoutError("Get timed out: some object(s) not ready.")


class PendingActor:
    def __init__(self) -> None:
        self.calls = 0
        self.info = SimpleNamespace(remote=self._info)

    def _info(self) -> str:
        self.calls += 1
        return "ref"


class RoomlessCluster:
    connected = True
    spec = ClusterSpec(address="10.0.0.5:6379")

    def __init__(self) -> None:
        self.ray = PendingRay()
        self.actors: list[PendingActor] = []

    def new_actor(self, config: EngineConfig) -> PendingActor:
        self.actors.append(PendingActor())
        return self.actors[-1]

    def gpus_per_actor(self) -> float:
        return 1.0

    def refresh_resources(self) -> None:
        pass

    def head_lost(self) -> str:
        return ""


def test_a_host_whose_actor_has_no_room_takes_no_job_and_says_why(monkeypatch: pytest.MonkeyPatch,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(ray_host_module, "START_WAIT_WARN_S", 0.0)
    cluster = RoomlessCluster()
    host = RayHost(cluster, 2, default_registry(), EngineConfig())
    looks: list[int] = []

    def stopping() -> bool:
        looks.append(1)
        return len(looks) > 4

    with caplog.at_level(logging.WARNING, logger="studio.worker.cluster.ray_host"):
        assert host.wait_ready(stopping) is False  # it waited until the service stopped: no job taken
    assert len(cluster.actors) == 1 and cluster.actors[0].calls == 1  # one actor, asked once, waited for
    assert host.view().state is ActorState.WAITING  # the queue panel says so too
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1, said
    assert "Engine actor 2" in said[0] and "1 CPU and 1 GPU" in said[0] and "--actors" in said[0]

    began = time.monotonic()
    assert host.check("sketch") == []  # unknown for now: the job may try, once the actor is there
    assert time.monotonic() - began < 1.0 and cluster.ray.waits[-1] == 0


def test_three_actors_on_one_cpu_still_run_the_queue(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("this process is already on a Ray cluster")
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, default_registry(), default_engine="sketch",
                                cluster=ClusterSpec("local", actors=3, cpus=1))
    try:
        first, job = service.generate(project.tree.root_id, "Character: Qiqi; Motion: wave; Background: day town.")
        _, second = service.generate(first, "Character: Qiqi; Motion: jump; Background: day park.")
        _, beside = service.generate(project.tree.root_id, "Character: Yuzu; Motion: run; Background: day street.")
        service.start()
        assert service.wait_jobs([job, second, beside], 150), [service.job(j).status for j in (job, second, beside)]
        assert [service.job(j).status for j in (job, second, beside)] == [JobStatus.DONE] * 3
        status = service.cluster_status()
        assert status is not None
        states = [actor.state for actor in status.actors]
        waiting = [state for state in states if state in (ActorState.STARTING, ActorState.WAITING)]
        assert len(waiting) == 2, states  # room for one actor of 1 CPU: the others wait
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()
        if ray.is_initialized():
            ray.shutdown()
