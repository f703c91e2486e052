"""Start a job and wait until its engine reports a stage: for tests that cancel or kill it there."""

from __future__ import annotations

import threading

from studio.storage import Project
from studio.worker import EventKind, GenerationService, JobEvent


def start_job_in(service: GenerationService, project: Project, text: str, stage: str = "predict",
                 timeout: float = 60) -> str:
    """Queue a turn of ``text`` under the story's start and return its job id once the engine
    reports progress in ``stage`` (the test fails if it does not within ``timeout`` seconds)."""
    reached = threading.Event()

    def watch(event: JobEvent) -> None:
        if event.kind is EventKind.PROGRESS and event.stage == stage:
            reached.set()

    service.subscribe(watch)
    _, job_id = service.generate(project.tree.root_id, text)
    assert reached.wait(timeout), f"the job of {text!r} never reached {stage}"
    return job_id
