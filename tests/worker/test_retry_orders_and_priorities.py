"""Jobs cancelled and retried in odd orders. Retrying a chain's first job queued again the
jobs its cancel had cancelled, even one the user had already retried by hand: that turn was
then generated twice. A priority too large for the database failed with an OverflowError
from deep inside SQLite; now it is refused with a clear message and the job is unchanged."""

from __future__ import annotations

import pytest

from studio.core.errors import StudioError
from studio.worker import JobStatus


def test_a_turn_retried_by_hand_is_not_queued_again_by_its_parents_retry(project, make_service) -> None:
    service = make_service(start=False)
    node_a, _a = service.generate(project.tree.root_id, "a")
    node_b, b = service.generate(node_a, "b")
    node_c, c = service.generate(node_b, "c")
    assert service.cancel(b)
    assert service.job(c).status is JobStatus.CANCELLED
    by_hand = service.retry(c)
    service.retry(b)
    waiting = [job for job in service.jobs() if job.status is JobStatus.QUEUED]
    assert sorted(job.node_id or "" for job in waiting) == sorted([node_a, node_b, node_c])
    assert [job.id for job in waiting if job.node_id == node_c] == [by_hand]


def test_retrying_twice_revives_the_chain_once(project, make_service) -> None:
    service = make_service(start=False)
    node_a, a = service.generate(project.tree.root_id, "a")
    node_b, _b = service.generate(node_a, "b")
    service.generate(node_b, "c")
    assert service.cancel(a)
    service.retry(a)
    service.retry(a)
    waiting = [job.node_id for job in service.jobs() if job.status is JobStatus.QUEUED]
    assert waiting.count(node_b) == 1


@pytest.mark.parametrize("priority,message", [
    (10**30, "out of range"), (-(2**63) - 1, "out of range"), (1.5, "whole number"), (True, "whole number"),
])
def test_a_priority_the_database_cannot_store_is_refused(project, make_service, priority, message) -> None:
    service = make_service(start=False)
    _node, job = service.generate(project.tree.root_id, "a")
    with pytest.raises(StudioError, match=message):
        service.set_priority(job, priority)
    assert service.job(job).priority == 0
    service.set_priority(job, 2**63 - 1)
    assert service.job(job).priority == 2**63 - 1
