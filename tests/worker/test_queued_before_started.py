"""A job's QUEUED event reaches every subscriber before its STARTED event (QA: the queue woke
the workers while it stored the job, then published QUEUED on the caller's thread, so a worker
could start the job first: a subscriber heard "started" before "queued", and a queue panel
then showed a running job as waiting; `test_event_kinds_for_a_generate_job` failed now and
then under load)."""

from __future__ import annotations

import time

from studio.worker import EventKind
from studio.worker.events import JobEvent

from .conftest import Recorder


def test_a_slow_subscriber_to_queued_does_not_let_the_job_start_first(project, make_service,  # type: ignore[no-untyped-def]
                                                                       recorder: Recorder) -> None:
    service = make_service()

    def slow(event: object) -> None:  # subscribed first: the recorder hears each event after it
        if isinstance(event, JobEvent) and event.kind is EventKind.QUEUED:
            time.sleep(0.5)  # the worker is free all this time

    service.subscribe(slow)
    service.subscribe(recorder)
    _, job_id = service.generate(project.tree.root_id, "x")
    assert service.wait_jobs([job_id], 10)
    kinds = recorder.kinds(job_id)
    assert kinds[:2] == ["queued", "started"], kinds
    assert kinds[-1] == "finished"

