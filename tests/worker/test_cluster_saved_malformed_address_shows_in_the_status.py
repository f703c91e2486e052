"""A malformed cluster address in the saved settings (hand-edited, or saved by a version
that did not check it) was refused when the window built the service's cluster, so the
whole generation service failed to start: "Generation is not available", with nothing
said of the cluster. :func:`saved_cluster` keeps such an address for the service to join
in the background, which refuses it at once, without asking Ray: the cluster status says
what is wrong with it, queued jobs stay queued, and the rest of the studio works."""

from __future__ import annotations

import sys

import pytest

from studio.core.errors import StudioError
from studio.storage import Project
from studio.worker import GenerationService, JobStatus
from studio.worker.cluster import ConnectionState, parse_cluster, saved_cluster

from .fake_engine import FakeScript, fake_registry
from .ray_stand_in import RayThatMustNotJoin


@pytest.mark.parametrize("address", ["head:-1", "10.0.0.5", "ray://head:10001", "http://head:6379"])
def test_a_saved_malformed_address_fails_in_the_cluster_status(project: Project, monkeypatch: pytest.MonkeyPatch,
                                                               address: str) -> None:
    fake = RayThatMustNotJoin()
    monkeypatch.setitem(sys.modules, "ray", fake)
    with pytest.raises(StudioError):
        parse_cluster(address)  # typed (--cluster, the settings dialog): refused at once, as before
    spec = saved_cluster(f" {address} ", actors=2)
    assert spec is not None and spec.address == address and spec.actors == 2
    service = GenerationService(project, fake_registry(FakeScript(), "fake"), default_engine="fake",
                                cluster=spec, connect_in_background=True)
    try:
        _, job_id = service.generate(project.tree.root_id, "walk")
        service.start()
        assert service.wait_connected(10)
        status = service.cluster_status()
        assert status is not None and status.state is ConnectionState.FAILED
        assert address in status.error and "not a Ray cluster's address" in status.error
        assert service.wait_idle(10)
        assert service.job(job_id).status is JobStatus.QUEUED
    finally:
        service.stop(timeout=10)
    assert fake.inits == []


def test_saved_settings_that_are_fine_or_empty() -> None:
    assert saved_cluster("  ") is None
    assert saved_cluster("") is None
    spec = saved_cluster(" Local ")
    assert spec is not None and spec.address == "local"
    spec = saved_cluster("10.0.0.5:6379", actors=3)
    assert spec is not None and spec.address == "10.0.0.5:6379" and spec.actors == 3
