"""A branch re-roll replaces the jobs still waiting to make takes of the same turns.

QA: turns queued by Fill (or `kamishibai fill`) and not started yet, then the branch re-rolled
(`kamishibai reroll NODE --branch`, which runs ahead of the queue): the fill jobs stayed
queued and ran later, each adding a take the user never asked for, made from the turn's old
past, and selecting it, so the re-rolled takes below went stale. Now the re-roll cancels those
waiting jobs, saying that the re-roll replaced them; a running job is left to finish.
"""

from __future__ import annotations

from studio.core.commands import AddTurn
from studio.worker import JobStatus

from .conftest import Recorder

TEXTS = ["Character: Qiqi; Motion: run", "Character: Qiqi; Motion: jump", "Character: Qiqi; Motion: sit"]


def _chain(project, texts: list[str] = TEXTS) -> list[str]:  # type: ignore[no-untyped-def]
    """Turns, each under the one before: their ids."""
    parent, ids = project.tree.root_id, []
    for text in texts:
        project.apply(AddTurn(parent, text))
        parent = project.tree.children(parent)[-1].id
        ids.append(parent)
    return ids


def test_fill_jobs_queued_before_a_branch_reroll_do_not_run(project, make_service, script,  # type: ignore[no-untyped-def]
                                                           recorder: Recorder) -> None:
    service = make_service(start=False)
    service.subscribe(recorder)
    turns = _chain(project)
    filled = service.fill(turns[-1])
    assert len(filled) == 3
    rerolled = service.reroll_branch(turns[0], priority=5)  # as `reroll --branch` queues it: ahead of the rest
    for job_id, new_id in zip(filled, rerolled, strict=True):
        job = service.job(job_id)
        assert job.status is JobStatus.CANCELLED
        assert job.error == f"Cancelled: the branch was re-rolled, and job {new_id} makes this turn's take instead."
        assert recorder.of("cancelled", job_id)
    assert [j.id for j in service.replaced_by(rerolled[0])] == [filled[0]]
    service.start()
    assert service.wait_idle(20)
    assert [service.job(j).status for j in rerolled] == [JobStatus.DONE] * 3
    assert script.order("decode") == TEXTS  # each turn made once, parents first
    for turn, job_id in zip(turns, rerolled, strict=True):
        takes = project.tree.takes_of(turn)
        assert [t.id for t in takes] == [service.job(job_id).take_id]
        assert project.tree.nodes[turn].selected_take_id == takes[0].id and not takes[0].stale


def test_a_turn_left_out_of_the_reroll_keeps_its_job_which_waits_for_the_new_one(  # type: ignore[no-untyped-def]
        project, make_service, script) -> None:
    service = make_service(start=False)
    turns = _chain(project)
    filled = service.fill(turns[-1])
    rerolled = service.reroll_branch(turns[0], only={turns[0]})  # only the first turn
    assert service.job(filled[0]).status is JobStatus.CANCELLED
    second = service.job(filled[1])
    assert second.status is JobStatus.QUEUED and second.depends_on == rerolled[0]
    service.start()
    assert service.wait_idle(20)
    assert script.order("decode") == TEXTS
    assert all(len(project.tree.takes_of(turn)) == 1 for turn in turns)


def test_a_running_job_of_the_turn_is_left_to_finish(project, make_service, script) -> None:  # type: ignore[no-untyped-def]
    texts = [f"{TEXTS[0]} [block]", *TEXTS[1:]]
    service = make_service()
    turns = _chain(project, texts)
    running = service.reroll(turns[0])
    assert script.started.wait(20)
    rerolled = service.reroll_branch(turns[0])
    assert service.job(running).status is JobStatus.RUNNING
    assert service.replaced_by(rerolled[0]) == []
    script.release.set()
    assert service.wait_idle(20)
    assert [service.job(j).status for j in (running, *rerolled)] == [JobStatus.DONE] * 4
    assert len(project.tree.takes_of(turns[0])) == 2
