"""Fixtures: a real project on disk, a scriptable fake engine, services stopped after each test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from studio.core.model import Location
from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobEvent

from .fake_engine import FakeScript, fake_registry


@pytest.fixture
def script() -> FakeScript:
    return FakeScript()


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    project = Project.create(tmp_path / "story", locations=[Location(id="loc1", name="Town")])
    yield project
    project.close()


@pytest.fixture
def make_service(project: Project, script: FakeScript) -> Iterator[Callable[..., GenerationService]]:
    services: list[GenerationService] = []

    def make(p: Project | None = None, *, start: bool = True, **kwargs: object) -> GenerationService:
        kwargs.setdefault("default_engine", "fake")
        kwargs.setdefault("hosts", HostMode.IN_PROCESS)  # the fake engines share a script with the test
        registry = kwargs.pop("registry", None) or fake_registry(script, "fake", "other")
        service = GenerationService(p or project, registry, **kwargs)  # type: ignore[arg-type]
        services.append(service)
        if start:
            service.start()
        return service

    yield make
    for service in services:
        service.stop(cancel_running=True, timeout=10)


class Recorder:
    """Collects events (called on the worker thread)."""

    def __init__(self) -> None:
        self.events: list[JobEvent] = []

    def __call__(self, event: JobEvent) -> None:
        self.events.append(event)

    def kinds(self, job_id: str | None = None) -> list[str]:
        return [e.kind.value for e in self.events if job_id is None or e.job_id == job_id]

    def of(self, kind: str, job_id: str | None = None) -> list[JobEvent]:
        return [e for e in self.events if e.kind.value == kind and (job_id is None or e.job_id == job_id)]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()
