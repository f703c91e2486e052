"""An engine process that dies between jobs (killed by the user or the kernel's
out-of-memory killer) holds no engine: the status says so at once, the next job loads the
engine again in a fresh process (and its progress bar shows the load), and it runs."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

from studio.storage import Project
from studio.worker import EventKind, GenerationService, HostMode, JobEvent, JobStatus

from .process_engines import registry


@pytest.fixture
def service(project: Project) -> Iterator[GenerationService]:
    started = GenerationService(project, registry(), default_engine="fake", hosts=HostMode.PROCESS)
    started.start()
    yield started
    started.stop(cancel_running=True, timeout=20)


def test_a_process_killed_between_jobs_holds_no_engine(project: Project, service: GenerationService) -> None:
    node, first = service.generate(project.tree.root_id, "one")
    assert service.wait_jobs([first], 60) and service.job(first).status is JobStatus.DONE
    assert service.engine_status().loaded
    pid = service.engine_pids()[0]
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while service.engine_pids() != [None] and time.monotonic() < deadline:
        time.sleep(0.02)
    status = service.engine_status()
    assert service.engine_pids() == [None]
    assert not status.loaded and status.name is None  # not "fake, loaded": nothing holds it
    stages: list[str] = []

    def watch(event: JobEvent) -> None:
        if event.kind is EventKind.PROGRESS:
            stages.append(event.stage)

    service.subscribe(watch)
    second = service.reroll(node)
    assert service.wait_jobs([second], 60)
    job = service.job(second)
    assert job.status is JobStatus.DONE, job.error
    take = project.tree.takes[job.take_id]
    assert take.conditioning["pid"] != pid and take.conditioning["loads"] == 1  # a fresh process loaded it
    assert "load" in stages  # the bar counted the load the new process had to do
    assert service.engine_status().loaded and service.engine_status().name == "fake"
