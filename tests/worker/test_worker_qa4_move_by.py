"""``move_by``: a job moves past as many queued jobs as asked, counted when the move runs.

QA: moves were by index only (``move(job_id, index)``), an index a view read earlier; when a
job started between that read and the move, the moved job landed one place off.
"""

from __future__ import annotations

import pytest

from studio.core.errors import StudioError
from studio.worker import JobStatus

from .fake_engine import FakeScript


def test_a_move_from_an_older_view_lands_where_the_user_meant(project, make_service, script: FakeScript) -> None:
    service = make_service(start=False)
    root = project.tree.root_id
    ids = [service.generate(root, text)[1] for text in ["a [block]", "b", "c", "d"]]
    seen = [job.id for job in service.jobs()]  # what a view showed: c third
    assert seen == ids
    service.start()
    assert script.started.wait(20)  # a has left the queued jobs: it runs
    assert service.job(ids[0]).status is JobStatus.RUNNING
    service.move_by(ids[2], -1)  # "run c earlier", decided from the view above
    assert [j.id for j in service.jobs() if j.status is JobStatus.QUEUED] == [ids[2], ids[1], ids[3]]
    script.release.set()
    assert service.wait_idle(20)
    assert script.order("decode") == ["a [block]", "c", "b", "d"]


def test_move_by_stops_at_either_end_and_refuses_a_job_not_queued(project, make_service) -> None:
    service = make_service(start=False)
    root = project.tree.root_id
    ids = [service.generate(root, text)[1] for text in ["a", "b", "c"]]
    service.move_by(ids[1], 99)
    assert [j.id for j in service.jobs()] == [ids[0], ids[2], ids[1]]
    service.move_by(ids[1], -99)
    assert [j.id for j in service.jobs()] == [ids[1], ids[0], ids[2]]
    service.cancel(ids[2])
    with pytest.raises(StudioError, match=f"Job {ids[2]} is not waiting in the queue"):
        service.move_by(ids[2], -1)
    with pytest.raises(StudioError, match="whole number of places"):
        service.move_by(ids[0], 1.5)  # type: ignore[arg-type]
