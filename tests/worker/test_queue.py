"""Job order, priorities, reordering, dependencies and cancellation."""

from __future__ import annotations

import time

import pytest

from studio.core.errors import StudioError
from studio.worker import EventKind, JobKind, JobStatus

from .conftest import Recorder
from .fake_engine import FakeScript


def test_higher_priority_first_then_fifo(project, make_service, script: FakeScript) -> None:
    service = make_service(start=False)
    root = project.tree.root_id
    texts = ["a", "b", "c", "d", "e"]
    priorities = [0, 5, 0, 5, -1]
    for text, priority in zip(texts, priorities, strict=True):
        service.generate(root, text, priority=priority)
    assert [j.status for j in service.jobs()] == [JobStatus.QUEUED] * 5
    service.start()
    assert service.wait_idle(20)
    assert script.order() == ["b", "d", "a", "c", "e"]
    assert all(j.status is JobStatus.DONE for j in service.jobs(include_finished=True))


def test_jobs_lists_queue_in_run_order(project, make_service) -> None:
    service = make_service(start=False)
    root = project.tree.root_id
    _, low = service.generate(root, "low", priority=-1)
    _, mid = service.generate(root, "mid")
    _, high = service.generate(root, "high", priority=3)
    assert [j.id for j in service.jobs()] == [high, mid, low]
    assert service.jobs(include_finished=False) == service.jobs()


def test_move_and_set_priority(project, make_service, script: FakeScript, recorder: Recorder) -> None:
    service = make_service(start=False)
    service.subscribe(recorder)
    root = project.tree.root_id
    ids = [service.generate(root, text)[1] for text in ["a", "b", "c", "d"]]
    service.move(ids[3], 0)
    assert [j.id for j in service.jobs()] == [ids[3], ids[0], ids[1], ids[2]]
    service.move(ids[3], 99)
    assert [j.id for j in service.jobs()] == [ids[0], ids[1], ids[2], ids[3]]
    service.move(ids[2], 1)
    assert [j.id for j in service.jobs()] == [ids[0], ids[2], ids[1], ids[3]]
    assert recorder.of("updated", ids[2])
    service.set_priority(ids[3], 10)
    assert service.jobs()[0].id == ids[3]
    # moving a high-priority job below a lower one takes that lower priority
    service.move(ids[3], 3)
    assert [j.id for j in service.jobs()] == [ids[0], ids[2], ids[1], ids[3]]
    service.start()
    assert service.wait_idle(20)
    assert script.order() == ["a", "c", "b", "d"]


def test_move_between_priorities_keeps_order_stable(project, make_service) -> None:
    service = make_service(start=False)
    root = project.tree.root_id
    hi = [service.generate(root, f"h{i}", priority=5)[1] for i in range(2)]
    lo = [service.generate(root, f"l{i}")[1] for i in range(2)]
    service.move(lo[1], 1)
    assert [j.id for j in service.jobs()] == [hi[0], lo[1], hi[1], lo[0]]
    with pytest.raises(StudioError):
        service.move("nope", 0)


def test_cancel_queued_job(project, make_service, script: FakeScript, recorder: Recorder) -> None:
    service = make_service(start=False)
    service.subscribe(recorder)
    root = project.tree.root_id
    node_a, a = service.generate(root, "a")
    _, b = service.generate(root, "b")
    assert service.cancel(a)
    assert service.job(a).status is JobStatus.CANCELLED
    assert recorder.of("cancelled", a)
    service.start()
    assert service.wait_idle(20)
    assert script.order() == ["b"]
    assert project.tree.takes_of(node_a) == []  # a cancelled job adds no take
    assert not service.cancel(a)  # already finished
    assert not service.cancel(b)


def test_cancelling_a_job_cancels_the_turns_that_continue_from_it(project, make_service) -> None:
    service = make_service(start=False)
    node_a, a = service.generate(project.tree.root_id, "a")
    _node_b, b = service.generate(node_a, "b")
    assert service.job(b).depends_on == a  # b's turn continues from a's, which has no take yet
    assert service.cancel(a)
    assert service.job(b).status is JobStatus.CANCELLED  # so it went with it
    # (a branch re-roll queued while they waited would have replaced them: see test_worker_qa4_*)
    jobs = service.reroll_branch(node_a)
    assert service.cancel(jobs[0])
    follower = service.job(jobs[1])
    assert follower.status is JobStatus.CANCELLED
    assert follower.error == "Cancelled: the turn it continues from was not generated (that job was cancelled)."
    assert jobs[0] not in follower.error, "no internal id in a message the user reads"


def test_cancel_running_job_within_one_step(project, make_service, script: FakeScript, recorder: Recorder) -> None:
    script.predict_steps = 2
    script.decode_steps = 200
    script.step_sleep = 0.05
    service = make_service()
    service.subscribe(recorder)
    node_id, job_id = service.generate(project.tree.root_id, "long one")
    deadline = time.monotonic() + 10
    while not any(e.stage == "decode" for e in recorder.of("progress", job_id)):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    steps_before = len(recorder.of("progress", job_id))
    cancelled_at = time.monotonic()
    assert service.cancel(job_id)
    assert service.wait_jobs([job_id], 5)
    elapsed = time.monotonic() - cancelled_at
    job = service.job(job_id)
    assert job.status is JobStatus.CANCELLED
    assert elapsed < 2 * script.step_sleep + 0.5
    assert len(recorder.of("progress", job_id)) - steps_before <= 1
    assert recorder.kinds(job_id)[-1] == "cancelled"
    assert project.tree.takes_of(node_id) == []
    assert not project.resolve(project.take_media_dir(job.take_id or "x")).exists()
    # the worker keeps serving
    script.step_sleep = 0.0
    job2 = service.reroll(node_id)
    assert service.wait_jobs([job2], 10)
    assert service.job(job2).status is JobStatus.DONE


def test_dependent_waits_and_is_cancelled_when_dependency_fails(project, make_service, script: FakeScript,
                                                                 recorder: Recorder) -> None:
    service = make_service(start=False)
    service.subscribe(recorder)
    root = project.tree.root_id
    parent, _ = service.generate(root, "parent")
    child, _ = service.generate(parent, "child")
    _grandchild, _ = service.generate(child, "grandchild")
    service.start()
    assert service.wait_idle(20)  # each turn has a take
    service.pause()
    # a dependent job queued at higher priority still waits for its dependency
    script.fail_on.add("parent")
    jobs = service.reroll_branch(parent, priority=9)
    service.resume()
    assert service.wait_jobs(jobs, 20)
    statuses = [service.job(j).status for j in jobs]
    assert statuses == [JobStatus.FAILED, JobStatus.CANCELLED, JobStatus.CANCELLED]
    assert "failed" in service.job(jobs[1]).error
    assert recorder.of("cancelled", jobs[2])
    assert script.order().index("parent") < script.order().index("child")
    assert script.order().count("child") == 1  # only the first (independent) job ran it


def test_submit_task_runs_in_order_with_events(project, make_service, recorder: Recorder) -> None:
    from studio.engines.base import Progress

    service = make_service(start=False)
    service.subscribe(recorder)
    seen: list[str] = []

    def task(progress, cancelled):  # type: ignore[no-untyped-def]
        for i in range(4):
            progress(Progress(i + 1, 4, "exporting"))
        seen.append("task")
        return "out.mp4"

    _, first = service.generate(project.tree.root_id, "first")
    task_id = service.submit_task("Export", task)
    service.start()
    assert service.wait_idle(10)
    job = service.job(task_id)
    assert job.kind is JobKind.TASK and job.status is JobStatus.DONE
    assert service.task_result(task_id) == "out.mp4"
    kinds = recorder.kinds(task_id)
    assert kinds[0] == "queued" and kinds[1] == "started" and kinds[-1] == "finished"
    assert "progress" in kinds
    assert recorder.events.index(recorder.of("finished", first)[0]) < recorder.events.index(
        recorder.of("started", task_id)[0])
    # tasks are not stored in the project
    assert project.database.execute("SELECT COUNT(*) FROM jobs WHERE id=?", (task_id,)).fetchone()[0] == 0


def test_task_cancel_and_failure(project, make_service, recorder: Recorder) -> None:
    from studio.engines.base import check_cancelled

    service = make_service()
    service.subscribe(recorder)

    def forever(progress, cancelled):  # type: ignore[no-untyped-def]
        while True:
            check_cancelled(cancelled)
            time.sleep(0.01)

    def broken(progress, cancelled):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    loop_id = service.submit_task("Loop", forever)
    bad_id = service.submit_task("Broken", broken)
    deadline = time.monotonic() + 5
    while service.job(loop_id).status is not JobStatus.RUNNING:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert service.cancel(loop_id)
    assert service.wait_idle(10)
    assert service.job(loop_id).status is JobStatus.CANCELLED
    assert service.job(bad_id).status is JobStatus.FAILED
    assert recorder.of("failed", bad_id)[0].message == "disk full"
    retried = service.retry(bad_id)
    assert service.wait_jobs([retried], 5)
    assert service.job(retried).status is JobStatus.FAILED


def test_event_kinds_for_a_generate_job(project, make_service, recorder: Recorder) -> None:
    service = make_service()
    service.subscribe(recorder)
    _, job_id = service.generate(project.tree.root_id, "x")
    assert service.wait_jobs([job_id], 10)
    kinds = recorder.kinds(job_id)
    assert kinds[:2] == ["queued", "started"]
    assert kinds[-1] == "finished"
    assert kinds.index("predicted") < kinds.index("finished")
    assert set(kinds) <= {k.value for k in EventKind}


def test_stop_cancels_or_interrupts_the_running_job(project, make_service, script: FakeScript,
                                                    recorder: Recorder) -> None:
    service = make_service()
    service.subscribe(recorder)
    node_id, first = service.generate(project.tree.root_id, "one [block]")
    _, queued = service.generate(project.tree.root_id, "two")
    assert script.started.wait(5)
    assert service.stop(interrupt_running=True, timeout=5)
    assert not service.running
    job = service.job(first)
    assert job.status is JobStatus.INTERRUPTED and recorder.of("interrupted", first)
    assert service.job(queued).status is JobStatus.QUEUED
    assert project.tree.takes_of(node_id) == []
    assert service.requeue_interrupted() == [first]
    script.started.clear()
    service.start()
    assert script.started.wait(5)
    assert service.stop(cancel_running=True, timeout=5)
    assert service.job(first).status is JobStatus.CANCELLED
    assert service.job(queued).status is JobStatus.QUEUED


def test_pause_and_resume(project, make_service, script: FakeScript) -> None:
    service = make_service()
    service.pause()
    _, job_id = service.generate(project.tree.root_id, "x")
    assert service.wait_idle(1)  # paused counts as idle
    assert service.job(job_id).status is JobStatus.QUEUED and script.calls == []
    service.resume()
    assert service.wait_jobs([job_id], 10)
    assert service.job(job_id).status is JobStatus.DONE


def test_a_follower_of_a_failed_job_says_that_job_failed(project, make_service) -> None:
    """"(that job was failed)" read as a slip: the turn below a failed one says that job failed."""
    service = make_service(start=False)
    node_a, _a = service.generate(project.tree.root_id, "a [fail]")
    _node_b, b = service.generate(node_a, "b")
    service.start()
    assert service.wait_idle(20)
    follower = service.job(b)
    assert follower.status is JobStatus.CANCELLED
    assert follower.error == "Cancelled: the turn it continues from was not generated (that job failed)."
