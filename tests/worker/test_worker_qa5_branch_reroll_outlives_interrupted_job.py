"""A job that a branch re-roll replaced never runs after the re-roll's job of its turn.

QA: a turn's job was running when the branch was re-rolled (`reroll --branch`, ahead of the
queue); the re-roll's job of that turn waited for it. The app was stopped (or crashed) while
it ran: it became interrupted, and once it was queued again (`run-queue --requeue-interrupted`)
or retried it ran after the re-roll's job, added a take made from the turn's old past and
selected it, so the re-rolled turns below went stale. Now queueing the interrupted jobs again
cancels that one, saying which job replaced it, and a retry of it (or of any job the re-roll
replaced) is refused, naming that job, while the re-roll makes the turn's take.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core.commands import AddTurn
from studio.core.errors import StudioError
from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobStatus

from .fake_engine import FakeScript
from .test_worker_qa5_branch_reroll_waits_for_running_job import HELD_SEED, _registry

TEXTS = ["Character: Qiqi; Motion: run", "Character: Qiqi; Motion: jump", "Character: Qiqi; Motion: sit"]


def _service(project: Project, script: FakeScript, **kwargs: object) -> GenerationService:
    return GenerationService(project, _registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS,
                             **kwargs)  # type: ignore[arg-type]


def _chain(project: Project) -> list[str]:
    parent, ids = project.tree.root_id, []
    for text in TEXTS:
        project.apply(AddTurn(parent, text))
        parent = project.tree.children(parent)[-1].id
        ids.append(parent)
    return ids


def _interrupted_under_a_reroll(path: Path, script: FakeScript) -> tuple[Path, list[str], str, list[str]]:
    """A project whose first turn's job was running when the branch was re-rolled, then
    interrupted by a stop ("Keep for next time"). Returns the folder, the turns, that job and
    the branch's jobs (still queued)."""
    project = Project.create(path)
    turns = _chain(project)
    service = _service(project, script)
    service.start()
    old = service.reroll(turns[0], seed=HELD_SEED)  # the turn has no take yet: its take would be selected
    assert script.started.wait(20)
    branch = service.reroll_branch(turns[0], seed=7, priority=5)  # as `reroll --branch`: ahead of the rest
    assert service.replaced_by(branch[0]) == []  # running: left to finish
    service.pause()
    assert service.stop(interrupt_running=True, timeout=10)
    assert service.job(old).status is JobStatus.INTERRUPTED
    assert [service.job(j).status for j in branch] == [JobStatus.QUEUED] * 3
    folder = project.path
    project.close()
    script.release.set()
    return folder, turns, old, branch


def _assert_the_branch_is_selected(project: Project, service: GenerationService, turns: list[str],
                                   branch: list[str]) -> None:
    assert [service.job(j).status for j in branch] == [JobStatus.DONE] * 3
    for turn, job_id in zip(turns, branch, strict=True):
        node = project.tree.nodes[turn]
        assert node.selected_take_id == service.job(job_id).take_id
        assert not project.tree.takes[node.selected_take_id].stale


def test_queued_again_the_interrupted_job_is_cancelled_as_replaced(tmp_path: Path) -> None:
    script = FakeScript()
    folder, turns, old, branch = _interrupted_under_a_reroll(tmp_path / "story", script)
    with Project.open(folder) as project:
        service = _service(project, script, auto_requeue=True)  # `run-queue --requeue-interrupted`
        try:
            job = service.job(old)
            assert job.status is JobStatus.CANCELLED
            assert job.error == f"Cancelled: the branch was re-rolled, and job {branch[0]} makes this turn's take " \
                                "instead."
            assert [j.id for j in service.replaced_by(branch[0])] == [old]
            service.start()
            assert service.wait_idle(20)
            _assert_the_branch_is_selected(project, service, turns, branch)
            # the first turn was made once, by the re-roll (the interrupted job never ran again)
            assert [seed for stage, raw, seed in script.calls if stage == "predict" and "run" in raw] == [7]
        finally:
            service.stop(cancel_running=True, timeout=10)


def test_a_retry_of_the_interrupted_job_is_refused_naming_the_reroll(tmp_path: Path) -> None:
    script = FakeScript()
    folder, turns, old, branch = _interrupted_under_a_reroll(tmp_path / "story", script)
    with Project.open(folder) as project:
        service = _service(project, script)
        try:
            with pytest.raises(StudioError, match=f"Job {old} can't be retried: the branch was re-rolled since, "
                                                  f"and job {branch[0]} makes this turn's take instead") as refused:
                service.retry(old, same_seed=True)
            assert refused.value.hint == "To make another take of this turn, re-roll it."
            assert service.job(old).status is JobStatus.INTERRUPTED  # nothing changed
            assert sorted(j.id for j in service.jobs() if j.node_id == turns[0]) == sorted([old, branch[0]])
            service.start()
            assert service.wait_idle(20)
            _assert_the_branch_is_selected(project, service, turns, branch)
            with pytest.raises(StudioError, match=f"job {branch[0]} makes this turn's take instead"):
                service.retry(old)  # nor once the re-roll is done: it would take its selection
        finally:
            service.stop(cancel_running=True, timeout=10)


def test_the_job_can_be_retried_once_the_reroll_is_cancelled(tmp_path: Path) -> None:
    script = FakeScript()
    folder, turns, old, branch = _interrupted_under_a_reroll(tmp_path / "story", script)
    with Project.open(folder) as project:
        service = _service(project, script)
        try:
            assert service.cancel(branch[0])
            again = service.retry(old, same_seed=True)
            service.start()
            assert service.wait_jobs([again], 20)
            assert project.tree.nodes[turns[0]].selected_take_id == service.job(again).take_id
        finally:
            service.stop(cancel_running=True, timeout=10)


def test_a_job_the_reroll_replaced_while_waiting_is_not_retried(project, make_service) -> None:  # type: ignore[no-untyped-def]
    service = make_service(start=False)
    turns = _chain(project)
    filled = service.fill(turns[-1])
    rerolled = service.reroll_branch(turns[0], priority=5)
    assert service.job(filled[1]).status is JobStatus.CANCELLED
    with pytest.raises(StudioError, match=f"job {rerolled[1]} makes this turn's take instead"):
        service.retry(filled[1])
    assert [j.id for j in service.jobs()] == rerolled


def test_a_retry_does_not_bring_back_the_jobs_below_that_the_reroll_replaced(  # type: ignore[no-untyped-def]
        project, make_service) -> None:
    service = make_service(start=False)
    turns = _chain(project)
    filled = service.fill(turns[-1])
    assert service.cancel(filled[0])  # the fill jobs below it are cancelled with it
    assert [service.job(j).status for j in filled] == [JobStatus.CANCELLED] * 3
    rerolled = service.reroll_branch(turns[1])
    again = service.retry(filled[0])
    # the second and third turns are the re-roll's: the fill's jobs of them are not queued again
    assert sorted(j.id for j in service.jobs()) == sorted([again, *rerolled])
