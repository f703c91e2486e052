"""The line above the queue counts interrupted jobs (QA: after a crash the queue opened on its
own with the interrupted jobs listed, and the line above them read "Queue empty")."""

from __future__ import annotations

from dataclasses import dataclass, replace

from studio.core.jobs import JobKind
from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import QueuePanel, summary_text
from studio.worker.events import JobStatus

from .test_queue_panel_updates import StubJob, StubService


@dataclass(frozen=True)
class Job(StubJob):
    kind: JobKind = JobKind.GENERATE


def test_interrupted_jobs_are_counted_not_called_an_empty_queue(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = QueuePanel(JobTracker(), lambda job: f"job {job.id}")
    qtbot.addWidget(panel)
    interrupted = [Job("a", JobStatus.INTERRUPTED), Job("b", JobStatus.INTERRUPTED)]
    service = StubService([*interrupted, Job("c", JobStatus.DONE)])
    panel.set_service(service)
    assert panel.has_jobs
    assert panel.summary.text() == "0 running · 0 queued · 2 interrupted"

    service.queue = [replace(interrupted[0], status=JobStatus.QUEUED), interrupted[1], Job("c", JobStatus.DONE)]
    panel.refresh()
    assert panel.summary.text() == "0 running · 1 queued · 1 interrupted"

    service.queue = [*(replace(job, status=JobStatus.CANCELLED) for job in interrupted), Job("c", JobStatus.DONE)]
    panel.refresh()
    assert panel.summary.text() == "No jobs waiting · 3 finished"  # the ended jobs listed below it


def test_the_summary_names_only_the_counts_there_are() -> None:
    assert summary_text(0, 0) == "No jobs waiting"
    assert summary_text(1, 3) == "1 running · 3 queued"
    assert summary_text(0, 0, blocked=2) == "0 running · 0 queued · 2 blocked"
    assert summary_text(0, 1, blocked=1, interrupted=1) == "0 running · 1 queued · 1 blocked · 1 interrupted"
