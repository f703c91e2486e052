"""An engine process stuck in a call that never looks at its cancel check (a driver call
that never returns, a deadlock in a native library) used to hold its job for good: Cancel
only set the child's cancel flag, nobody read it, and the job stayed "running" while the
device's worker thread waited on the pipe (closing the project waited for it too). The
parent now ends a child that has not answered a cancel within :data:`CANCEL_GRACE_S`: the
job ends as cancelled, nothing of its take is kept, and the next job gets a fresh engine
process."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobStatus, engine_process
from studio.worker.engine_process import CANCEL_GRACE_S

from .job_in_stage import start_job_in
from .process_engines import registry


@pytest.fixture
def service(project: Project, monkeypatch: pytest.MonkeyPatch) -> Iterator[GenerationService]:
    monkeypatch.setattr(engine_process, "CANCEL_GRACE_S", 1.0)
    started = GenerationService(project, registry(), default_engine="fake", hosts=HostMode.PROCESS)
    started.start()
    yield started
    started.stop(cancel_running=True, timeout=20)


def test_the_grace_is_a_few_seconds() -> None:
    assert 1.0 <= CANCEL_GRACE_S <= 30.0


def test_cancelling_a_job_whose_engine_is_stuck_ends_it_and_its_process(project: Project,
                                                                       service: GenerationService) -> None:
    job_id = start_job_in(service, project, "[stuck]")
    pid = service.engine_pids()[0]
    assert pid is not None
    asked = time.perf_counter()
    assert service.cancel(job_id)
    assert service.wait_jobs([job_id], 15), "the job still runs: its stuck engine was never stopped"
    assert time.perf_counter() - asked < 10
    job = service.job(job_id)
    assert job.status is JobStatus.CANCELLED, job
    assert job.take_id == "" or job.take_id not in project.tree.takes
    assert pid not in service.engine_pids()

    _, after = service.generate(project.tree.root_id, "fine")
    assert service.wait_jobs([after], 60)
    take = project.tree.takes[service.job(after).take_id]
    assert take.status.value == "done" and take.conditioning["pid"] != pid
