"""A cancel sent to a Ray actor stuck in a call that never looks at its cancel check (a
driver call that never returns, a deadlock in a native library) was sent once and never
enforced: the job stayed "running" for good, as the local engine process's once did. The
host now kills such an actor after :data:`CANCEL_GRACE_S`: the job ends as cancelled
(through the host-lost path, not as a failure), and the next job gets a fresh actor.

Ray itself is faked (as :class:`~studio.worker.cluster.ray_host.RayHost` takes it from its
cluster): an actor whose job never ends and whose cancel is ignored."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from studio.core.commands import AddTurn
from studio.core.model import new_id
from studio.engines.base import EngineConfig
from studio.storage import Project
from studio.worker.cluster import ray_host
from studio.worker.cluster.actor import ActorInfo
from studio.worker.cluster.ray_host import RayHost
from studio.worker.cluster.status import ActorState
from studio.worker.context import RepresentationCache
from studio.worker.engine_host import HostLostError
from studio.worker.jobs import Job, JobKind, JobStatus
from studio.worker.progress import StageTimes
from studio.worker.runner import CANCELLED_MESSAGE, GenerateRunner

from .fake_engine import FakeScript, fake_registry

GRACE_S = 0.3


class RayError(Exception):
    pass


class ActorDiedError(RayError):
    pass


class GetTimeoutError(RayError):
    pass


@dataclass(frozen=True)
class Ref:
    """What a fake remote call returns: ``ray.get`` gives its value."""

    value: Any


class ActorReply:
    """An item of a job's stream (``next(stream)``): ``ray.get`` gives the message."""


class Method:
    def __init__(self, call: Any) -> None:
        self.call = call

    def remote(self, *args: Any) -> Any:
        return self.call(*args)


@dataclass
class StuckActor:
    """An actor whose job never ends and which ignores every cancel."""

    pid: int
    cancels: list[str] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    killed: bool = False

    def __post_init__(self) -> None:
        self.info = Method(lambda: Ref(ActorInfo(pid=self.pid, node="10.0.0.3", actor_id=f"a{self.pid}")))
        self.run = Method(self._run)
        self.cancel = Method(lambda take_id: self.cancels.append(take_id))

    def _run(self, job: Any) -> Any:
        self.runs.append(job.take_id)
        return itertools.repeat(ActorReply())  # read only once ``ray.wait`` says so


class FakeRay:
    """The few ``ray`` calls the host makes."""

    exceptions = SimpleNamespace(RayError=RayError, ActorDiedError=ActorDiedError, GetTimeoutError=GetTimeoutError)

    def __init__(self) -> None:
        self.kills: list[tuple[StuckActor, bool]] = []

    def get(self, ref: Ref, timeout: float | None = None) -> Any:
        return ref.value

    def wait(self, refs: list[Any], timeout: float) -> tuple[list[Any], list[Any]]:
        time.sleep(timeout)  # nothing ever comes from a stuck actor
        return [], refs

    def kill(self, actor: StuckActor, no_restart: bool = False) -> None:
        actor.killed = True
        self.kills.append((actor, no_restart))


class FakeCluster:
    connected = True

    def __init__(self) -> None:
        self.ray = FakeRay()
        self.actors: list[StuckActor] = []
        self._pids = itertools.count(4242)

    def new_actor(self, config: EngineConfig) -> StuckActor:
        self.actors.append(StuckActor(next(self._pids)))
        return self.actors[-1]

    def refresh_resources(self) -> None:
        pass


@pytest.fixture(autouse=True)
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ray_host, "CANCEL_GRACE_S", GRACE_S)


def _runner(project: Project, script: FakeScript, cluster: FakeCluster) -> tuple[GenerateRunner, RayHost]:
    host = RayHost(cluster, 0, fake_registry(script, "fake"), EngineConfig())
    return GenerateRunner(project, host, StageTimes(), RepresentationCache()), host


class Reporter:
    def progress(self, update: object) -> None: ...

    def predicted(self, prediction: object, state: object) -> None: ...


def test_a_cancelled_job_on_a_stuck_actor_ends_as_cancelled_and_the_actor_is_replaced(project: Project,
                                                                                    script: FakeScript) -> None:
    project.apply(AddTurn(project.tree.root_id, "a turn", node_id="t1"))
    cluster = FakeCluster()
    runner, host = _runner(project, script, cluster)
    job = Job(id="j1", kind=JobKind.GENERATE, node_id="t1", engine="fake", take_id=new_id(),
              status=JobStatus.RUNNING)

    def cancelled() -> bool:  # Cancel pressed once the job runs on the actor
        return any(actor.runs for actor in cluster.actors)

    asked = time.perf_counter()
    outcome = runner.run(job, Reporter(), cancelled)
    took = time.perf_counter() - asked

    assert outcome.status is JobStatus.CANCELLED and outcome.message == CANCELLED_MESSAGE, outcome
    assert GRACE_S <= took < GRACE_S + 5, "the stuck actor was waited on past the grace"
    (stuck,) = cluster.actors
    assert stuck.cancels == [job.take_id], "the cancel was sent once, before the actor was ended"
    assert cluster.ray.kills == [(stuck, True)], "the stuck actor must not be restarted with what it held"
    assert not project.tree.takes and not list((project.path / "media").glob("takes/*"))

    assert host.wait_ready(lambda: False)
    assert len(cluster.actors) == 2 and host.pid == cluster.actors[1].pid
    assert host.view().state is ActorState.IDLE and host.restarts == 1


def test_the_stuck_actor_s_loss_names_it_and_the_grace(script: FakeScript) -> None:
    cluster = FakeCluster()
    host = RayHost(cluster, 0, fake_registry(script, "fake"), EngineConfig())
    job = SimpleNamespace(engine="fake", take_id="take1")

    with pytest.raises(HostLostError) as lost:
        host.execute(job, SimpleNamespace(), lambda: True)  # type: ignore[arg-type]
    assert "actor 0 (pid 4242" in lost.value.message
    assert f"did not stop within {GRACE_S:g} s of a cancel" in lost.value.message


def test_an_actor_that_answers_the_cancel_in_time_is_kept(script: FakeScript) -> None:
    """Only a stuck actor is ended: one that stops (WasCancelled) keeps serving."""
    from studio.core.progress import Cancelled
    from studio.worker.engine_process import WasCancelled

    cluster = FakeCluster()
    host = RayHost(cluster, 0, fake_registry(script, "fake"), EngineConfig())
    stops = FakeRay()
    stops.wait = lambda refs, timeout: (refs, [])  # type: ignore[method-assign]
    stops.get = lambda ref, timeout=None: (  # type: ignore[method-assign]
        WasCancelled() if isinstance(ref, ActorReply) else ref.value)
    cluster.ray = stops

    with pytest.raises(Cancelled):
        host.execute(SimpleNamespace(engine="fake", take_id="take1"), SimpleNamespace(),  # type: ignore[arg-type]
                     lambda: True)
    assert not stops.kills and host.wait_ready(lambda: False) and len(cluster.actors) == 1
