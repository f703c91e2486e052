"""A render farm whose head went away under a job: `run-queue --cluster` said the job's return
to the queue twice in a row ("warning: The render farm was lost during write (...); the job
went back to the queue." then "warning: job 8b59... goes back to the queue: The render farm
was lost during write (...); the job went back to the queue."). The host now leaves it to the
runner, whose warning names the job: said once.

Ray is faked as in ``test_ray_host_ends_a_stuck_actor`` (the calls the host makes); the
farm's loss is what ``RayCluster.head_lost`` found."""

from __future__ import annotations

import logging

import pytest

from studio.core.commands import AddTurn
from studio.core.model import new_id
from studio.storage import Project
from studio.worker.jobs import Job, JobKind, JobStatus

from .fake_engine import FakeScript
from .test_ray_host_ends_a_stuck_actor import FakeCluster, Reporter, _runner

LOST = "its head at 10.0.0.5:6379 no longer answers: nothing takes connections (Connection refused)"


class GoneCluster(FakeCluster):
    """A cluster found gone once its actor took the job."""

    lost = ""

    def head_lost(self) -> str:
        return self.lost


def test_the_job_s_return_is_said_once_naming_the_job(project: Project, script: FakeScript,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    project.apply(AddTurn(project.tree.root_id, "a turn", node_id="t1"))
    cluster = GoneCluster()
    runner, _host = _runner(project, script, cluster)
    job = Job(id="j1", kind=JobKind.GENERATE, node_id="t1", engine="fake", take_id=new_id(),
              status=JobStatus.RUNNING)

    def cancelled() -> bool:  # never cancelled: the farm goes away once the actor runs the job
        if cluster.actors and cluster.actors[0].runs:
            cluster.lost = LOST
        return False

    with caplog.at_level(logging.INFO, logger="studio"):
        outcome = runner.run(job, Reporter(), cancelled)

    assert outcome.status is JobStatus.QUEUED, outcome
    assert outcome.message.startswith("The render farm was lost during ") and LOST in outcome.message
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warned == [f"job j1 goes back to the queue: {outcome.message}"], warned
    assert not project.tree.takes and not list((project.path / "media").glob("takes/*"))
