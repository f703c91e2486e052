"""A queued job whose turn is deleted before it starts is cancelled when its turn comes
up, saying so: not "deleted while it was being generated" (nothing was generated)."""

from __future__ import annotations

from collections.abc import Callable

from studio.core.commands import DeleteSubtree
from studio.storage import Project
from studio.worker import GenerationService, JobStatus
from studio.worker.runner import NODE_DELETED_BEFORE_MESSAGE, NODE_DELETED_MESSAGE

from .conftest import Recorder
from .fake_engine import FakeScript


def test_a_turn_deleted_while_its_jobs_wait_says_nothing_was_generated(
        project: Project, make_service: Callable[..., GenerationService], script: FakeScript,
        recorder: Recorder) -> None:
    service = make_service(start=False)
    service.subscribe(recorder)
    node_id, first = service.generate(project.tree.root_id, "to delete")
    rerolls = [first, service.reroll(node_id), service.reroll(node_id)]
    kept_node, kept = service.generate(project.tree.root_id, "kept")
    project.apply(DeleteSubtree(node_id))
    service.start()
    assert service.wait_jobs([*rerolls, kept], 10)
    for job_id in rerolls:
        job = service.job(job_id)
        assert job.status is JobStatus.CANCELLED
        assert job.error == NODE_DELETED_BEFORE_MESSAGE != NODE_DELETED_MESSAGE
        assert recorder.of("cancelled", job_id)[0].message == job.error
        assert not recorder.of("started", job_id) or not project.resolve(
            project.take_media_dir(recorder.of("started", job_id)[0].job.take_id)).exists()
    assert service.job(kept).status is JobStatus.DONE
    assert not any(take.node_id == node_id for take in project.tree.takes.values())
    assert kept_node in project.tree.nodes
