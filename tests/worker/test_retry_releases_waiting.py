"""Retrying an interrupted job releases the jobs that wait for it.

A chain of jobs (``fill``: each turn's job waits for the one above it) is stopped with its
first job running, as "Keep for next time" does: that job becomes interrupted, the others
stay queued and are reported as blocked. Retrying the interrupted job queues a new job and
re-points the waiting ones to it, in the same transaction, so the whole chain runs in order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core.commands import AddTurn
from studio.storage import Project
from studio.storage.job_store import JobStore
from studio.worker import GenerationService, HostMode, JobStatus
from studio.worker.jobs import Job

from .fake_engine import FakeScript, fake_registry

TEXTS = ["one [block]", "two", "three"]


def _service(project: Project, script: FakeScript, engine: str = "fake") -> GenerationService:
    return GenerationService(project, fake_registry(script, engine), default_engine=engine,
                             hosts=HostMode.IN_PROCESS)


def _interrupted_chain(path: Path, script: FakeScript, engine: str = "fake") -> tuple[Path, list[str], list[str]]:
    """A project with three turns in a row and their chained jobs: the first was running
    when the project was closed with "keep", the others are queued. Returns the project's
    folder, the turns and the jobs."""
    project = Project.create(path)
    nodes: list[str] = []
    parent = project.tree.root_id
    for text in TEXTS:
        project.apply(AddTurn(parent, text))
        parent = project.tree.children(parent)[-1].id
        nodes.append(parent)
    service = _service(project, script, engine)
    job_ids = service.fill(nodes[-1])
    assert len(job_ids) == 3
    service.start()
    assert script.started.wait(5)
    service.pause()  # the window's "Keep for next time"
    assert service.stop(interrupt_running=True, timeout=10)
    assert [service.job(j).status for j in job_ids] == [JobStatus.INTERRUPTED, JobStatus.QUEUED, JobStatus.QUEUED]
    folder = project.path
    project.close()
    script.release.set()  # the turn runs at once from now on
    return folder, nodes, job_ids


def _stored(folder: Path) -> dict[str, Job]:
    with Project.open(folder, read_only=True) as project:
        return {job.id: job for job in JobStore(project.database).load()}


def test_retrying_the_interrupted_job_runs_the_whole_chain_in_order(tmp_path: Path) -> None:
    script = FakeScript()
    folder, nodes, (first, second, third) = _interrupted_chain(tmp_path / "story", script)

    project = Project.open(folder)
    try:
        service = _service(project, script)
        assert service.job(first).status is JobStatus.INTERRUPTED
        assert service.cancelled_at_start() == []
        # while the first waits, the others are blocked by it (as the CLI's `queue` says)
        assert {job_id: job.id for job_id, job in service.blocked().items()} == {second: first, third: first}
        blocker = service.blocked_by(third)
        assert blocker is not None and blocker.id == first
        assert service.blocked_by(first) is None

        again = service.retry(first, same_seed=True)
        assert service.job(first).status is JobStatus.CANCELLED
        assert service.job(second).depends_on == again
        assert service.job(third).depends_on == second
        assert service.blocked() == {}
        stored = _stored(folder)  # written with the retry, before anything ran
        assert stored[again].status is JobStatus.QUEUED
        assert stored[second].depends_on == again and stored[second].status is JobStatus.QUEUED

        service.start()
        assert service.wait_jobs([again, second, third], 20)
        assert service.wait_idle(10)
        statuses = {j: service.job(j).status for j in (again, second, third)}
        assert statuses == dict.fromkeys((again, second, third), JobStatus.DONE)
        assert [j for j in service.jobs() if j.status is JobStatus.QUEUED] == []
        assert script.order("decode") == TEXTS  # parents first
        tree = project.tree
        for node_id in nodes:
            assert any(t.status.value == "done" for t in tree.takes_of(node_id))
        assert service.fill(nodes[-1]) == []
        service.stop()
    finally:
        project.close()

    # reopened, nothing is cancelled and nothing is left waiting
    project = Project.open(folder)
    try:
        service = _service(project, script)
        assert service.cancelled_at_start() == []
        assert service.jobs() == []
        assert service.job(third).status is JobStatus.DONE
        service.stop()
    finally:
        project.close()


def _retry_and_close(folder: Path, script: FakeScript, job_id: str, left_waiting: str | None = None) -> str:
    """Retry ``job_id`` (same seed) and close the project before it runs; ``left_waiting``
    is pointed back at the replaced job, as an older version's retry left it."""
    with Project.open(folder) as project:
        service = _service(project, script)
        again = service.retry(job_id, same_seed=True)
        assert service.stop()
        if left_waiting is not None:
            with project.database.transaction() as conn:
                conn.execute("UPDATE jobs SET depends_on=? WHERE id=?", (job_id, left_waiting))
    return str(again)


def _run_to_the_end(service: GenerationService, job_ids: list[str]) -> None:
    service.start()
    assert service.wait_jobs(job_ids, 20)
    assert [service.job(j).status for j in job_ids] == [JobStatus.DONE] * len(job_ids)
    service.stop()


def test_a_retry_kept_for_next_time_still_runs_the_chain(tmp_path: Path) -> None:
    """Retried, then closed before it ran: the reopened queue runs the chain, it does not
    cancel the jobs that waited for the replaced one."""
    script = FakeScript()
    folder, _nodes, (first, second, third) = _interrupted_chain(tmp_path / "story", script)
    again = _retry_and_close(folder, script, first)
    with Project.open(folder) as project:
        service = _service(project, script)
        assert service.cancelled_at_start() == []
        assert {j.id for j in service.jobs()} == {again, second, third}
        _run_to_the_end(service, [again, second, third])
    assert script.order("decode") == TEXTS


def test_a_job_waiting_on_a_retried_failed_job_follows_the_retry(tmp_path: Path) -> None:
    """A project left by an older version: the interrupted job was replaced (cancelled),
    and the jobs that waited for it still name it. Opening it points them at the retry."""
    script = FakeScript()
    folder, _nodes, (first, second, third) = _interrupted_chain(tmp_path / "story", script)
    again = _retry_and_close(folder, script, first, left_waiting=second)
    with Project.open(folder) as project:
        service = _service(project, script)
        assert service.cancelled_at_start() == []
        assert service.job(second).depends_on == again
        _run_to_the_end(service, [again, second, third])
    assert _stored(folder)[second].depends_on == again


def test_cancelling_the_interrupted_job_cancels_the_chain_at_once(tmp_path: Path) -> None:
    script = FakeScript()
    folder, _nodes, (first, second, third) = _interrupted_chain(tmp_path / "story", script)
    with Project.open(folder) as project:
        service = _service(project, script)
        assert service.cancel(first)
        assert [service.job(j).status for j in (first, second, third)] == [JobStatus.CANCELLED] * 3
        assert service.blocked() == {}
        service.stop()
    stored = _stored(folder)
    assert [stored[j].status for j in (first, second, third)] == [JobStatus.CANCELLED] * 3


def test_a_failed_retry_cancels_the_jobs_that_wait_for_it(tmp_path: Path) -> None:
    script = FakeScript()
    folder, _nodes, (first, second, third) = _interrupted_chain(tmp_path / "story", script)
    script.fail_on.add(TEXTS[0])
    with Project.open(folder) as project:
        service = _service(project, script)
        again = service.retry(first, same_seed=True)
        service.start()
        assert service.wait_jobs([again, second, third], 20)
        assert service.job(again).status is JobStatus.FAILED
        assert [service.job(j).status for j in (second, third)] == [JobStatus.CANCELLED] * 2
        service.stop()


@pytest.fixture
def fake_cli(monkeypatch: pytest.MonkeyPatch, script: FakeScript) -> FakeScript:
    import studio.composition as composition

    monkeypatch.setattr(composition, "default_registry", lambda: fake_registry(script, "sketch", "fake"))
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    return script


def test_run_queue_requeue_interrupted_runs_the_chain(tmp_path: Path, fake_cli: FakeScript,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    folder, _nodes, job_ids = _interrupted_chain(tmp_path / "story", fake_cli, "sketch")
    assert main(["run-queue", str(folder), "--quiet"]) == 1  # they wait for the interrupted job
    assert "--requeue-interrupted" in capsys.readouterr().err
    assert main(["run-queue", str(folder), "--requeue-interrupted", "--quiet"]) == 0
    stored = _stored(folder)
    assert [stored[j].status for j in job_ids] == [JobStatus.DONE] * 3
    assert fake_cli.order("decode") == TEXTS


def test_run_queue_after_a_retry_in_the_window_runs_the_chain(tmp_path: Path, fake_cli: FakeScript) -> None:
    from studio.cli import main

    folder, _nodes, (first, second, third) = _interrupted_chain(tmp_path / "story", fake_cli, "sketch")
    with Project.open(folder) as project:  # the window retried it, then was closed
        service = _service(project, fake_cli, "sketch")
        again = service.retry(first, same_seed=True)
        assert service.stop()
    assert main(["run-queue", str(folder), "--quiet"]) == 0
    stored = _stored(folder)
    assert [stored[j].status for j in (again, second, third)] == [JobStatus.DONE] * 3
    assert stored[first].status is JobStatus.CANCELLED
    assert fake_cli.order("decode") == TEXTS


def test_a_retried_job_keeps_its_place_after_the_job_it_waited_for(tmp_path: Path) -> None:
    script = FakeScript()
    project = Project.create(tmp_path / "story")
    try:
        parent = project.tree.root_id
        for text in TEXTS[:2]:
            project.apply(AddTurn(parent, text))
            parent = project.tree.children(parent)[-1].id
        service = _service(project, script)
        first, second = service.fill(parent)
        service.start()
        assert script.started.wait(5)
        assert service.cancel(second)  # while the first runs
        again = service.retry(second)
        assert service.job(again).depends_on == first
        script.release.set()
        assert service.wait_jobs([first, again], 20)
        assert [service.job(j).status for j in (first, again)] == [JobStatus.DONE] * 2
        assert script.order("decode") == TEXTS[:2]
        service.stop()
    finally:
        project.close()


def test_jobs_waiting_for_a_job_that_could_not_start_are_cancelled(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    script = FakeScript()
    project = Project.create(tmp_path / "story")
    try:
        parent = project.tree.root_id
        for text in TEXTS[1:]:
            project.apply(AddTurn(parent, text))
            parent = project.tree.children(parent)[-1].id
        service = _service(project, script)
        first, second = service.fill(parent)

        def refuse(job: Job) -> bool:
            raise OSError("disk I/O error")

        monkeypatch.setattr(service._queue._store, "claim", refuse)
        service.start()
        assert service.wait_jobs([first, second], 10)
        assert service.job(first).status is JobStatus.FAILED
        assert service.job(second).status is JobStatus.CANCELLED
        service.stop()
    finally:
        project.close()
