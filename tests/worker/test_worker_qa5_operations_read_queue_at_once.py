"""Operations read the queue when their jobs are stored, not before.

QA: Fill clicked twice quickly (or the window's Fill and `kamishibai fill` together) queued
every turn twice: each fill read which turns already had a job from the queue as it was
before the other's jobs were stored, so both queued a job per turn, and each turn got two
takes. A turn added under a turn whose queued job the user had just cancelled waited for
that cancelled job: it stayed queued for ever, and the queue counted as done; so did a retry
of a turn whose turn above had its job cancelled at that moment. Now each
operation reads the tree and the queue and queues its jobs in one operation of the writer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

from studio.core.commands import AddTurn
from studio.worker import JobStatus
from studio.worker.writer import Writer

T = TypeVar("T")


class CountingWriter(Writer):
    """The writer, telling the test when it has been handed ``expected`` operations."""

    def __init__(self, project, expected: int) -> None:  # type: ignore[no-untyped-def]
        super().__init__(project)
        self.expected = expected
        self.count = 0
        self.all_in = threading.Event()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[[], T]) -> Future[T]:
        with self._lock:
            self.count += 1
            if self.count >= self.expected:
                self.all_in.set()
        return super().submit(fn)


def test_two_fills_at_once_queue_each_turn_once(project, make_service) -> None:  # type: ignore[no-untyped-def]
    parent, turns = project.tree.root_id, []
    for text in ["Character: Qiqi; Motion: run", "Character: Qiqi; Motion: jump"]:
        project.apply(AddTurn(parent, text))
        parent = project.tree.children(parent)[-1].id
        turns.append(parent)
    writer = CountingWriter(project, expected=3)  # the gate below, then one operation per fill
    service = make_service(start=False, writer=writer)
    writer.count = 0  # counted from here (opening the queue used the writer too)
    gate = threading.Event()
    busy = writer.submit(gate.wait)  # the writer is busy with something else meanwhile
    fills: list[list[str]] = []
    threads = [threading.Thread(target=lambda: fills.append(service.fill(turns[-1]))) for _ in range(2)]
    for thread in threads:
        thread.start()
    assert writer.all_in.wait(20)  # both fills are waiting for the writer
    gate.set()
    busy.result(20)
    for thread in threads:
        thread.join(20)
    assert sorted(len(ids) for ids in fills) == [0, 2]
    queued = [job for job in service.jobs() if job.status is JobStatus.QUEUED]
    assert sorted(job.node_id or "" for job in queued) == sorted(turns)


def _cancel_then(writer: CountingWriter, service, job_id: str, operation: Callable[[], str]) -> str:  # type: ignore[no-untyped-def]
    """Cancel ``job_id``, then run ``operation`` (which queues a job; its id is returned),
    both from other threads, while the writer is busy: the cancel reaches the writer first."""
    writer.count, writer.expected = 0, 2
    writer.all_in.clear()
    gate = threading.Event()
    busy = writer.submit(gate.wait)
    cancel = threading.Thread(target=service.cancel, args=(job_id,))
    cancel.start()
    assert writer.all_in.wait(20)  # the cancel waits for the writer
    writer.all_in.clear()
    writer.expected = 3
    queued: list[str] = []
    other = threading.Thread(target=lambda: queued.append(operation()))
    other.start()
    assert writer.all_in.wait(20)  # so does the operation, after it
    gate.set()
    busy.result(20)
    cancel.join(20)
    other.join(20)
    assert service.job(job_id).status is JobStatus.CANCELLED
    return queued[0]


def test_a_turn_added_just_after_its_parents_job_was_cancelled_still_runs(project, make_service) -> None:  # type: ignore[no-untyped-def]
    writer = CountingWriter(project, expected=2)
    service = make_service(start=False, writer=writer)
    parent, parent_job = service.generate(project.tree.root_id, "Character: Qiqi; Motion: run")
    added = _cancel_then(writer, service, parent_job,
                         lambda: service.generate(parent, "Character: Qiqi; Motion: sit")[1])
    child_job = service.job(added)
    assert child_job.depends_on is None  # nothing left to wait for
    service.start()
    assert service.wait_idle(20)
    assert service.job(child_job.id).status is JobStatus.DONE


def test_a_retry_made_just_after_the_job_above_was_cancelled_still_runs(project, make_service) -> None:  # type: ignore[no-untyped-def]
    writer = CountingWriter(project, expected=2)
    service = make_service(start=False, writer=writer)
    parent, parent_job = service.generate(project.tree.root_id, "Character: Qiqi; Motion: run")
    _, child_job = service.generate(parent, "Character: Qiqi; Motion: sit")
    service.cancel(child_job)  # the user cancels the turn below, then retries it
    retried = _cancel_then(writer, service, parent_job, lambda: service.retry(child_job))
    assert service.job(retried).depends_on is None
    service.start()
    assert service.wait_idle(20)
    assert service.job(retried).status is JobStatus.DONE


def test_a_reroll_made_just_after_the_job_above_was_cancelled_still_runs(project, make_service) -> None:  # type: ignore[no-untyped-def]
    writer = CountingWriter(project, expected=2)
    service = make_service(start=False, writer=writer)
    parent, parent_job = service.generate(project.tree.root_id, "Character: Qiqi; Motion: run")
    project.apply(AddTurn(parent, "Character: Qiqi; Motion: sit"))
    child = project.tree.children(parent)[-1].id
    rerolled = _cancel_then(writer, service, parent_job, lambda: service.reroll(child))
    assert service.job(rerolled).depends_on is None
    service.start()
    assert service.wait_idle(20)
    assert service.job(rerolled).status is JobStatus.DONE
