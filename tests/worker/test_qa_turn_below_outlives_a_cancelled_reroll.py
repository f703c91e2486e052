"""A turn queued under a turn with several jobs waits for the newest of them. Cancelling
that one (an extra re-roll the user no longer wants), or its failing, used to cancel the
turn below as "the turn it continues from was not generated", though an earlier job of
the turn above had made a take, or was still being made. It now waits for what it needs:
nothing when the turn above has a take, else that turn's other job."""

from __future__ import annotations

from collections.abc import Callable

from studio.storage import Project
from studio.storage.job_store import JobStore
from studio.worker import GenerationService, JobStatus
from studio.worker.queue import CASCADE_CANCEL

from .conftest import Recorder
from .fake_engine import FakeScript

ABOVE = "Character: Qiqi; Motion: run; Background: day town [block]"
BELOW = "Character: Qiqi; Motion: jump; Background: day town"


def _turn_with_two_jobs_and_a_turn_below(project: Project, service: GenerationService,
                                         script: FakeScript) -> tuple[str, str, str, str]:
    """The turn above with its first job running (blocked) and a re-roll queued, and a turn
    below it waiting for that re-roll."""
    above, first = service.generate(project.tree.root_id, ABOVE)
    assert script.started.wait(10)
    reroll = service.reroll(above)
    _below, below_job = service.generate(above, BELOW)
    assert service.job(below_job).depends_on == reroll
    return above, first, reroll, below_job


def test_cancelling_the_extra_reroll_keeps_the_turn_below_when_the_turn_above_has_a_take(
        project: Project, make_service: Callable[..., GenerationService], script: FakeScript,
        recorder: Recorder) -> None:
    service = make_service()
    service.subscribe(recorder)
    above, first, reroll, below_job = _turn_with_two_jobs_and_a_turn_below(project, service, script)
    service.pause()  # the re-roll stays queued once the first job is done
    script.release.set()
    assert service.wait_jobs([first], 10) and service.job(first).status is JobStatus.DONE
    assert service.cancel(reroll)
    waiting = service.job(below_job)
    assert waiting.status is JobStatus.QUEUED and waiting.depends_on is None
    assert recorder.of("updated", below_job)
    assert JobStore(project.database).get(below_job) == waiting  # stored as well
    service.resume()
    assert service.wait_jobs([below_job], 10)
    assert service.job(below_job).status is JobStatus.DONE
    context = dict(script.contexts)[BELOW]
    assert context.previous is not None, "it continued from the take of the turn above"
    assert project.tree.takes_of(above)[0].id == service.job(first).take_id


def test_cancelling_the_extra_reroll_makes_the_turn_below_wait_for_the_running_job(
        project: Project, make_service: Callable[..., GenerationService], script: FakeScript) -> None:
    service = make_service()
    _above, first, reroll, below_job = _turn_with_two_jobs_and_a_turn_below(project, service, script)
    assert service.cancel(reroll)
    assert service.job(below_job).status is JobStatus.QUEUED
    assert service.job(below_job).depends_on == first
    script.release.set()
    assert service.wait_jobs([first, below_job], 10)
    assert [service.job(j).status for j in (first, below_job)] == [JobStatus.DONE] * 2
    assert script.order("decode") == [ABOVE, BELOW]


def test_the_turn_below_is_still_called_off_when_no_job_of_the_turn_above_is_left(
        project: Project, make_service: Callable[..., GenerationService], script: FakeScript) -> None:
    service = make_service()
    _above, first, reroll, below_job = _turn_with_two_jobs_and_a_turn_below(project, service, script)
    assert service.cancel(first)
    assert service.wait_jobs([first], 10)
    assert service.job(below_job).depends_on == reroll  # the re-roll is still on its way
    assert service.cancel(reroll)  # running by now, or still queued
    assert service.wait_jobs([reroll], 10)
    below = service.job(below_job)
    assert below.status is JobStatus.CANCELLED and below.error.startswith(CASCADE_CANCEL)
