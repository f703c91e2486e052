"""Retrying a job whose cancel or failure cut a chain short queues the rest of the chain
again (QA: cancelling a running turn of a "fill" cancelled the turns after it, and Retry
re-queued only that one turn, so each later turn had to be retried by hand, in order).

Only the jobs cancelled *because* of it come back: a job the user cancelled stays
cancelled, and so do the jobs after it; a job whose turn was deleted is not queued again.
"""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import DeleteSubtree
from studio.storage import Project
from studio.worker import JobStatus

from .fake_engine import FakeScript
from .test_retry_releases_waiting import TEXTS, _interrupted_chain, _service, _stored


def _chain_of(service, first: str) -> list[str]:  # type: ignore[no-untyped-def]
    """``first`` and the queued jobs after it, following what each waits for."""
    chain = [first]
    while True:
        after = [j.id for j in service.jobs() if j.depends_on == chain[-1]]
        if not after:
            return chain
        assert len(after) == 1
        chain.append(after[0])


def test_retrying_a_cancelled_job_runs_the_turns_after_it_again(tmp_path: Path) -> None:
    script = FakeScript()
    folder, nodes, (first, second, third) = _interrupted_chain(tmp_path / "story", script)
    with Project.open(folder) as project:
        service = _service(project, script)
        seeds = {service.job(j).node_id: service.job(j).seed for j in (second, third)}
        assert service.cancel(first)
        assert [service.job(j).status for j in (second, third)] == [JobStatus.CANCELLED] * 2
        again = service.retry(first)
        chain = _chain_of(service, again)
        assert len(chain) == 3
        copies = [service.job(j) for j in chain[1:]]
        assert [job.node_id for job in copies] == nodes[1:]
        assert [job.retry_of for job in copies] == [second, third]
        assert all(job.status is JobStatus.QUEUED for job in copies)
        assert {job.node_id: job.seed for job in copies} == seeds  # they never ran: the seeds they had
        stored = _stored(folder)  # written with the retry
        assert [stored[j].depends_on for j in chain[1:]] == chain[:-1]
        service.start()
        assert service.wait_jobs(chain, 20)
        assert [service.job(j).status for j in chain] == [JobStatus.DONE] * 3
        assert [service.job(j).status for j in (second, third)] == [JobStatus.CANCELLED] * 2  # kept as history
        service.stop()
        for node_id in nodes:
            assert any(t.status.value == "done" for t in project.tree.takes_of(node_id))
    assert script.order("decode") == TEXTS


def test_retrying_a_failed_job_runs_the_turns_after_it_again(tmp_path: Path) -> None:
    script = FakeScript()
    folder, nodes, (first, second, third) = _interrupted_chain(tmp_path / "story", script)
    script.fail_on.add(TEXTS[0])
    with Project.open(folder) as project:
        service = _service(project, script)
        again = service.retry(first, same_seed=True)
        service.start()
        assert service.wait_jobs([again, second, third], 20)
        assert service.job(again).status is JobStatus.FAILED
        script.fail_on.clear()
        last = service.retry(again)
        chain = _chain_of(service, last)
        assert [service.job(j).node_id for j in chain] == nodes
        assert service.wait_jobs(chain, 20)
        assert [service.job(j).status for j in chain] == [JobStatus.DONE] * 3
        service.stop()


def test_a_job_the_user_cancelled_is_not_brought_back(tmp_path: Path) -> None:
    script = FakeScript()
    folder, _nodes, (first, second, third) = _interrupted_chain(tmp_path / "story", script)
    with Project.open(folder) as project:
        service = _service(project, script)
        assert service.cancel(second)  # by the user; the third goes with it
        assert service.cancel(first)
        again = service.retry(first)
        assert _chain_of(service, again) == [again]
        assert [service.job(j).status for j in (second, third)] == [JobStatus.CANCELLED] * 2
        service.stop()


def test_a_deleted_turns_job_is_not_queued_again(tmp_path: Path) -> None:
    script = FakeScript()
    folder, nodes, (first, second, _third) = _interrupted_chain(tmp_path / "story", script)
    with Project.open(folder) as project:
        service = _service(project, script)
        assert service.cancel(first)
        project.apply(DeleteSubtree(nodes[2]))
        again = service.retry(first)
        chain = _chain_of(service, again)
        assert [service.job(j).node_id for j in chain] == nodes[:2]
        assert service.job(chain[1]).retry_of == second
        service.stop()
