"""The whole cluster going away mid-job (its head stopped: `ray stop`, the head node
gone). The running job went back to the queue as for a lost actor, but the host then
waited for a restart that could never come, without a word: `run-queue` hung silently,
busy, until Ray itself ended the process a minute later with a C++ error, and the window
still said "connected". Now a host whose actor is lost looks at the cluster's head: when it
no longer takes connections, the host stops (the queued jobs stay queued), the log says
once that the render farm was lost and what to do, and the cluster's status says "lost".

Ray is faked as in ``test_ray_host_ends_a_stuck_actor`` (only the calls the host makes); the
head is a closed port on this machine."""

from __future__ import annotations

import logging
import socket
from types import SimpleNamespace
from typing import Any

import pytest

from studio.engines.base import EngineConfig
from studio.worker.cluster.backend import LOST_HINT, RayCluster
from studio.worker.cluster.ray_host import RayHost
from studio.worker.cluster.spec import ClusterSpec
from studio.worker.cluster.status import ActorState, ConnectionState

from .fake_engine import FakeScript, fake_registry
from .test_ray_host_ends_a_stuck_actor import ActorDiedError, GetTimeoutError, RayError


class ActorUnavailableError(RayError):
    pass


class UnreachableRay:
    """A driver whose cluster is gone: every call to an actor fails as unavailable."""

    exceptions = SimpleNamespace(RayError=RayError, ActorDiedError=ActorDiedError, GetTimeoutError=GetTimeoutError)

    def __init__(self) -> None:
        self.gets = 0

    def is_initialized(self) -> bool:
        return True

    def get(self, ref: Any, timeout: float | None = None) -> Any:
        self.gets += 1
        raise ActorUnavailableError("The actor is temporarily unavailable: RpcError: Socket closed")

    def cluster_resources(self) -> dict[str, float]:
        return {}

    def nodes(self) -> list[dict[str, Any]]:
        return []


class Actor:
    info = SimpleNamespace(remote=lambda: "ref")


def _closed_address() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"127.0.0.1:{port}"  # closed once the socket is: nothing takes connections there


def _lost_host(head: str, script: FakeScript) -> tuple[RayCluster, RayHost, UnreachableRay]:
    ray = UnreachableRay()
    cluster = RayCluster(ClusterSpec(address="10.0.0.5:6379"), ray, owned=False)
    cluster._head = head
    cluster.new_actor = lambda config: Actor()  # type: ignore[method-assign]
    host = RayHost(cluster, 0, fake_registry(script, "fake"), EngineConfig())
    host._actor = Actor()
    host._mark_lost()  # what a job that lost its actor leaves behind
    cluster.hosts = [host]
    return cluster, host, ray


def test_a_host_stops_waiting_once_the_cluster_s_head_is_gone(script: FakeScript,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    cluster, host, _ray = _lost_host(_closed_address(), script)
    looks: list[int] = []

    def stopping() -> bool:  # a bound on the old behaviour's endless wait, never reached with the fix
        looks.append(1)
        return len(looks) > 50

    with caplog.at_level(logging.WARNING, logger="studio.worker.cluster.backend"):
        ready = host.wait_ready(stopping)

    assert ready is False, "no job may go to a cluster that is gone: the host stops and the jobs stay queued"
    assert len(looks) < 5, "the host kept waiting for a restart that can't come"
    assert host.view().state is ActorState.STOPPED
    status = cluster.status()
    assert status.state is ConnectionState.LOST and status.hint == LOST_HINT
    assert "no longer answers" in status.error and cluster._head in status.error
    assert status.summary().startswith("The render farm (10.0.0.5:6379) was lost: its head at 127.0.0.1:")
    said = [r.getMessage() for r in caplog.records if "render farm" in r.getMessage()]
    assert len(said) == 1 and "went back to the queue" in said[0], said
    assert cluster.head_lost() and len([r for r in caplog.records if "render farm" in r.getMessage()]) == 1


def test_a_lost_actor_on_a_live_cluster_is_still_waited_for(script: FakeScript,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a head that takes no connection counts as the cluster gone: an actor Ray is
    restarting on a live cluster is still waited for."""
    monkeypatch.setattr("studio.worker.cluster.ray_host.time.sleep", lambda seconds: None)
    with socket.socket() as head:
        head.bind(("127.0.0.1", 0))
        head.listen()
        cluster, host, ray = _lost_host(f"127.0.0.1:{head.getsockname()[1]}", script)
        assert host.wait_ready(lambda: ray.gets >= 3) is False  # stopped by the service, not by a loss
    assert ray.gets == 3 and host.view().state is ActorState.RESTARTING
    assert cluster.status().state is ConnectionState.CONNECTED
