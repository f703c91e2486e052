"""When the render farm went away under `run-queue --cluster` (or could not be joined), the
run's last lines say so beside the jobs still queued, with the command that goes on. QA: it
ended saying only "N job(s) are still queued and did not run", the loss told only in the
warnings above it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.cli.generate_cmds import _waiting_messages
from studio.composition import default_registry
from studio.storage import Project
from studio.worker import GenerationService
from studio.worker.cluster.status import ClusterStatus, ConnectionState

from .conftest import new_project, play


@pytest.fixture
def queued(tmp_path: Path) -> Iterator[tuple[Path, GenerationService]]:
    path = new_project(tmp_path / "farm gone")
    node = play(path)["node"]
    project = Project.open(path)
    service = GenerationService(project, default_registry())
    service.reroll(node, settings={"frames": 3, "width": 64, "height": 48})
    yield path, service
    project.close()


@pytest.mark.parametrize(("state", "said"), [(ConnectionState.LOST, "was lost"),
                                             (ConnectionState.FAILED, "could not be joined")])
def test_the_jobs_left_name_the_farm_and_how_to_go_on(queued: tuple[Path, GenerationService],
                                                     monkeypatch: pytest.MonkeyPatch, state: ConnectionState,
                                                     said: str) -> None:
    path, service = queued
    status = ClusterStatus.unconnected("10.0.0.7:6379", state, error="the head stopped answering")
    monkeypatch.setattr(service, "cluster_status", lambda: status)
    messages = _waiting_messages(service, str(path))
    assert len(messages) == 1, messages
    assert "1 job(s) are still queued and did not run" in messages[0]
    assert f"The render farm (10.0.0.7:6379) {said}; they stay queued." in messages[0]
    assert f"kamishibai run-queue '{path}' --cluster 10.0.0.7:6379" in messages[0]


def test_without_a_farm_nothing_is_added(queued: tuple[Path, GenerationService]) -> None:
    path, service = queued
    messages = _waiting_messages(service, str(path))
    assert messages and "render farm" not in messages[0]
