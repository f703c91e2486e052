"""The queue's Retry names the selected job's state and what a retry does with its seed: it
said "Retry the selected failed job" for a cancelled or an interrupted job too (an
interrupted generation runs again with its seed; a failed or cancelled one gets a new one)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from studio.core.jobs import Job, JobKind, JobStatus
from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import RETRY_TIP, QueuePanel


@dataclass
class StubService:
    """The calls the panel makes to list jobs and read one."""

    queue: list[Job] = field(default_factory=list)

    def jobs(self, include_finished: bool = False) -> list[Job]:
        return [j for j in self.queue if include_finished or not j.finished]

    def job(self, job_id: str) -> Job:
        return next(j for j in self.queue if j.id == job_id)

    def blocked(self) -> dict[str, Job]:
        return {}

    def unrunnable_engines(self) -> dict[str, list[str]]:
        return {}


def _job(status: JobStatus, kind: JobKind = JobKind.GENERATE) -> Job:
    return Job(id=f"{kind.value}-{status.value}", kind=kind, node_id="turn", status=status, engine="sketch",
               seed=7, created_at="2026-01-01T00:00:00")


@pytest.mark.parametrize(("status", "kind", "tip", "on"), [
    (JobStatus.FAILED, JobKind.GENERATE, "Retry the failed job, with a new seed", True),
    (JobStatus.CANCELLED, JobKind.GENERATE, "Retry the cancelled job, with a new seed", True),
    (JobStatus.INTERRUPTED, JobKind.GENERATE, "Run the interrupted job again, with the same seed", True),
    (JobStatus.FAILED, JobKind.TASK, "Retry the failed job", True),
    (JobStatus.CANCELLED, JobKind.TASK, "Retry the cancelled job", True),
    (JobStatus.DONE, JobKind.GENERATE, "A finished job can't be retried: only a failed, cancelled or "
                                       "interrupted one can", False),
    (JobStatus.QUEUED, JobKind.GENERATE, "A queued job can't be retried: only a failed, cancelled or "
                                         "interrupted one can", False),
    (JobStatus.RUNNING, JobKind.GENERATE, "A running job can't be retried: only a failed, cancelled or "
                                          "interrupted one can", False),
])
def test_retry_names_the_selected_jobs_state(qtbot, status: JobStatus, kind: JobKind, tip: str, on: bool) -> None:
    panel = QueuePanel(JobTracker(), lambda job: f"job {job.id}")
    qtbot.addWidget(panel)
    job = _job(status, kind)
    panel.set_service(StubService([job]))
    assert panel.retry_button.toolTip() == RETRY_TIP  # nothing selected yet
    panel.select_job(job.id)
    assert panel.selected_job_id() == job.id
    assert panel.retry_button.toolTip() == tip
    assert panel.retry_button.isEnabled() is on


def test_retry_follows_the_selected_job_as_it_ends(qtbot) -> None:
    panel = QueuePanel(JobTracker(), lambda job: f"job {job.id}")
    qtbot.addWidget(panel)
    service = StubService([_job(JobStatus.RUNNING)])
    panel.set_service(service)
    panel.select_job("generate-running")
    assert not panel.retry_button.isEnabled()
    service.queue = [Job(id="generate-running", kind=JobKind.GENERATE, node_id="turn", status=JobStatus.CANCELLED,
                         engine="sketch", seed=7, created_at="2026-01-01T00:00:00")]
    panel.refresh()
    assert panel.retry_button.isEnabled()
    assert panel.retry_button.toolTip() == "Retry the cancelled job, with a new seed"
