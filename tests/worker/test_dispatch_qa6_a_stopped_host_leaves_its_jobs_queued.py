"""A device whose host stopped for good (a render farm whose head no longer answers) ends its
worker thread, and the queue's waiters then saw its jobs as still runnable: `run-queue` kept
waiting, silently, until Ray ended the process a minute later. A worker whose thread ended
runs nothing more, so the queue settles with those jobs still queued."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import AddTurn
from studio.storage import Project
from studio.worker import GenerationService, HostMode
from studio.worker.jobs import JobStatus

from .fake_engine import FakeScript, fake_registry


def test_the_queue_settles_when_the_only_host_stopped_for_good(tmp_path: Path) -> None:
    with Project.create(tmp_path / "story.kamishibai") as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run."))
        turn = project.tree.children(project.tree.root_id)[0].id
        service = GenerationService(project, fake_registry(FakeScript()), default_engine="fake",
                                    hosts=HostMode.IN_PROCESS)
        try:
            (worker,) = service._pool.workers  # one device: the CPU
            worker.host.wait_ready = lambda stopping: False  # type: ignore[attr-defined]  # gone for good
            job_id = service.reroll(turn)
            service.start()
            assert service.wait_idle(30), "the queue never settled: a stopped host's jobs counted as runnable"
            assert service.job(job_id).status is JobStatus.QUEUED  # kept for when a host can run it
        finally:
            service.stop(cancel_running=True, timeout=10)
