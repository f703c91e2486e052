"""A turn continues from the clip and state of the turn above it: generating (or re-rolling)
a turn whose parent has no take yet but one queued or being made waits for that job (QA: it
ran at once, or first when given a higher priority, from the turn above without a take; and
when the parent's job failed it ran anyway). A parent with a take to continue from, or whose
only job was interrupted, makes nothing wait."""

from __future__ import annotations

from studio.core.commands import AddTurn
from studio.worker import JobStatus

TEXT_A = "Character: Qiqi; Motion: run; Background: day town"
TEXT_B = "Character: Qiqi; Motion: jump; Background: day town"


def _turn(project, parent: str, text: str) -> str:  # type: ignore[no-untyped-def]
    project.apply(AddTurn(parent, text))
    return str(project.tree.children(parent)[-1].id)


def test_a_new_turn_waits_for_the_job_of_the_turn_above(project, make_service, script) -> None:  # type: ignore[no-untyped-def]
    service = make_service(start=False)
    a = _turn(project, project.tree.root_id, TEXT_A)
    job_a = service.reroll(a)
    _b, job_b = service.generate(a, TEXT_B, priority=10)  # ahead of A's job in the queue
    assert service.job(job_b).depends_on == job_a
    service.start()
    assert service.wait_jobs([job_a, job_b], 20)
    assert [service.job(j).status for j in (job_a, job_b)] == [JobStatus.DONE] * 2
    assert script.order("decode") == [TEXT_A, TEXT_B]  # the parent first, though the child came first
    context = dict(script.contexts)[TEXT_B]
    assert context.previous is not None and context.previous.engine == "fake", "it continued from A's take"


def test_a_reroll_waits_too_and_is_cancelled_if_the_turn_above_fails(project, make_service, script) -> None:  # type: ignore[no-untyped-def]
    service = make_service(start=False)
    a = _turn(project, project.tree.root_id, TEXT_A)
    b = _turn(project, a, TEXT_B)
    script.fail_on.add(TEXT_A)
    job_a = service.reroll(a)
    job_b = service.reroll(b, priority=10)
    assert service.job(job_b).depends_on == job_a
    service.start()
    assert service.wait_jobs([job_a, job_b], 20)
    assert service.job(job_a).status is JobStatus.FAILED
    assert service.job(job_b).status is JobStatus.CANCELLED
    assert script.order("decode") == []
    script.fail_on.clear()
    again = service.retry(job_a)  # and the turn below comes back with it
    queued_b = next(j for j in service.jobs() if j.depends_on == again)
    assert queued_b.node_id == b
    assert service.wait_jobs([again, queued_b.id], 20)
    assert script.order("decode") == [TEXT_A, TEXT_B]


def test_nothing_waits_when_the_turn_above_has_a_take(project, make_service, script) -> None:  # type: ignore[no-untyped-def]
    service = make_service()
    a = _turn(project, project.tree.root_id, TEXT_A)
    first = service.reroll(a)
    assert service.wait_jobs([first], 20) and service.job(first).status is JobStatus.DONE
    service.pause()
    another = service.reroll(a)  # a second take of A on its way: B can continue from the first
    _b, job_b = service.generate(a, TEXT_B)
    assert service.job(job_b).depends_on is None
    branch = service.reroll_branch(a)
    assert service.job(branch[0]).depends_on is None
    service.cancel(another)


def test_a_branch_reroll_from_a_turn_waits_for_the_turn_above(project, make_service, script) -> None:  # type: ignore[no-untyped-def]
    service = make_service(start=False)
    a = _turn(project, project.tree.root_id, TEXT_A)
    b = _turn(project, a, TEXT_B)
    job_a = service.reroll(a)
    jobs = service.reroll_branch(b)
    assert [service.job(j).node_id for j in jobs] == [b]
    assert service.job(jobs[0]).depends_on == job_a
