"""A move renumbers the queued jobs with their own sequence numbers, never another job's.

QA: a move renumbered the queued jobs from the lowest queued number up, so a queued job
could take the number of an interrupted job between them; once that one was queued again
(`requeue_interrupted`, or `run-queue --requeue-interrupted`) the two tied in run order, and
which ran first was left to chance. Now the queued jobs share out the numbers they had.
"""

from __future__ import annotations

from collections import Counter

from studio.worker import JobStatus

from .fake_engine import FakeScript


def test_no_two_jobs_share_a_place_after_a_move_and_a_requeue(project, make_service, script: FakeScript) -> None:  # type: ignore[no-untyped-def]
    service = make_service(start=False)
    root = project.tree.root_id
    first = service.generate(root, "first")[1]
    stopped = service.generate(root, "stopped [block]", priority=5)[1]  # runs before the others
    last = service.generate(root, "last")[1]
    service.start()
    assert script.started.wait(20)
    assert service.stop(interrupt_running=True, timeout=10)
    assert service.job(stopped).status is JobStatus.INTERRUPTED
    service.set_priority(stopped, 0)  # now in the middle, by age
    service.move_by(last, -1)  # "run last first"
    assert [j.id for j in service.jobs() if j.status is JobStatus.QUEUED] == [last, first]
    service.requeue_interrupted()
    jobs = service.jobs()
    numbers = Counter(job.sequence for job in jobs)
    assert [n for n, count in numbers.items() if count > 1] == []
    assert [j.id for j in jobs] == [last, stopped, first]  # the interrupted job keeps its own place


def test_a_move_in_a_queue_already_tied_gives_fresh_numbers(project, make_service) -> None:  # type: ignore[no-untyped-def]
    old = make_service(start=False)
    root = project.tree.root_id
    ids = [old.generate(root, text)[1] for text in ["a", "b", "c"]]
    old.writer.detach()
    with project.database.transaction() as conn:  # as an earlier version could leave it: b and c tied
        conn.execute("UPDATE jobs SET sequence=2 WHERE id=?", (ids[2],))
    service = make_service(start=False)
    service.move_by(ids[0], 2)
    assert [j.id for j in service.jobs()] == [ids[1], ids[2], ids[0]]
    _, added = service.generate(root, "d")
    jobs = service.jobs()
    assert len({job.sequence for job in jobs}) == 4
    assert [j.id for j in jobs] == [ids[1], ids[2], ids[0], added]
