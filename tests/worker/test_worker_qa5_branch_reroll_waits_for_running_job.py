"""A branch re-roll of a turn whose own job is running waits for that job to end.

QA: with two devices, a branch re-roll's first job was running on one when the user re-rolled
the branch again: the branch's job of that turn started at once on the other device, so the
two ran side by side and whichever ended last was selected. The old one ended last, took the
selection back and made the re-rolled turns below it stale. Now the branch's job of a turn
waits while another job of that turn runs; the re-rolled take is made, and selected, last.
"""

from __future__ import annotations

from studio.core.commands import AddTurn
from studio.engines.base import CancelCheck, GenerationContext, Prediction, ProgressCallback, check_cancelled
from studio.engines.registry import EngineRegistry
from studio.worker import JobStatus

from .fake_engine import FakeEngine, FakeScript, fake_info

HELD_SEED = 111
"""The seed of the one job the gated engine holds until the script's ``release``."""


class GatedEngine(FakeEngine):
    """The fake engine, except that the job with :data:`HELD_SEED` waits in ``predict``
    (after announcing ``started``) until the test releases it: only that job, whatever its
    turn's text."""

    def predict(self, context: GenerationContext, instruction, settings, seed: int,  # type: ignore[no-untyped-def]
                progress: ProgressCallback, cancelled: CancelCheck) -> Prediction:
        if seed == HELD_SEED:
            self.script.started.set()
            while not self.script.release.wait(0.005):
                check_cancelled(cancelled)
        return super().predict(context, instruction, settings, seed, progress, cancelled)


def _registry(script: FakeScript) -> EngineRegistry:
    registry = EngineRegistry()
    info = fake_info(script)
    registry.register(info, lambda config: GatedEngine(config, script, info))
    return registry


def test_the_branch_job_of_a_turn_waits_for_that_turns_running_job(project, make_service, script) -> None:  # type: ignore[no-untyped-def]
    service = make_service(devices=["cpu", "cpu"], registry=_registry(script))
    parent, turns = project.tree.root_id, []
    for text in ["Character: Qiqi; Motion: run", "Character: Qiqi; Motion: jump", "Character: Qiqi; Motion: sit"]:
        project.apply(AddTurn(parent, text))
        parent = project.tree.children(parent)[-1].id
        turns.append(parent)
    first = service.reroll_branch(turns[0], seed=HELD_SEED)
    running = first[0]
    assert script.started.wait(20)  # the first turn's job runs on one device, held
    branch = service.reroll_branch(turns[0], seed=7, priority=5)  # ahead of everything else
    # a job queued after the branch, for the free device: it runs once nothing of the branch can
    _, later = service.generate(project.tree.root_id, "Character: Sosuke; Motion: wave")
    assert service.wait_jobs([later], 20)
    assert service.job(running).status is JobStatus.RUNNING
    assert service.job(branch[0]).status is JobStatus.QUEUED  # not run beside the running job
    script.release.set()
    assert service.wait_idle(20)
    assert [service.job(j).status for j in first[1:]] == [JobStatus.CANCELLED] * 2  # replaced while waiting
    assert [service.job(j).status for j in (running, *branch)] == [JobStatus.DONE] * 4
    seeds = [seed for stage, raw, seed in script.calls if stage == "predict" and "run" in raw]
    assert seeds == [HELD_SEED, 7]
    for turn, job_id in zip(turns, branch, strict=True):
        node = project.tree.nodes[turn]
        assert node.selected_take_id == service.job(job_id).take_id  # the re-rolled take is selected
        assert not project.tree.takes[node.selected_take_id].stale
