"""A project folder moved (or deleted) while jobs wait used to be noticed only when the
engine host wrote the take's files or the take was committed: a whole generation was
spent first. The runner now asks the project whether its folder is still in place right
before it hands a job to its host: the job fails at once with the moved-folder message,
and no take folder is made at the old place (nor anywhere)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from studio.storage import Project
from studio.worker import GenerationService, JobStatus

from .fake_engine import FakeScript


def _queue_then(project: Project, make_service: Callable[..., GenerationService],
                change: Callable[[Path], None]) -> tuple[GenerationService, str]:
    """Queue one job, ``change`` the project folder, then start the service on it."""
    service = make_service(start=False)
    _, job_id = service.generate(project.tree.root_id, "walk")
    change(project.path)
    service.start()
    assert service.wait_jobs([job_id], 30)
    return service, job_id


def test_a_job_of_a_moved_project_fails_before_its_generation(project: Project, script: FakeScript,
                                                              make_service: Callable[..., GenerationService],
                                                              tmp_path: Path) -> None:
    old = project.path
    moved = tmp_path / "elsewhere.kamishibai"
    service, job_id = _queue_then(project, make_service, lambda folder: shutil.move(folder, moved))

    job = service.job(job_id)
    assert job.status is JobStatus.FAILED, job
    assert "Can't generate a take" in job.error and str(old) in job.error, job.error
    assert not script.calls, "the engine ran for a project that had moved"
    assert not old.exists(), "a ghost project folder was made at the old place"
    assert not list((moved / "media").glob("takes/*"))
    assert not project.tree.takes  # the failed take would be refused the same way: none is recorded


def test_a_job_of_a_deleted_project_fails_before_its_generation(project: Project, script: FakeScript,
                                                                make_service: Callable[..., GenerationService]) -> None:
    old = project.path
    service, job_id = _queue_then(project, make_service, shutil.rmtree)

    job = service.job(job_id)
    assert job.status is JobStatus.FAILED, job
    assert "Can't generate a take" in job.error and "deleted" in job.error, job.error
    assert not script.calls
    assert not old.exists()
