"""An engine that returns something malformed (a NaN representation, words instead of
numbers, no prediction or clip at all, a clip at a frame rate no video can hold) fails its
job with a message that names the engine and the problem: no take is kept whose
representation the turns below would continue from, and the turn queued below is not run
from it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from studio.core.model import TakeStatus
from studio.engines.base import Clip, Prediction
from studio.engines.registry import EngineRegistry
from studio.storage import Project
from studio.worker import GenerationService, JobStatus

from .fake_engine import FakeEngine, FakeScript, fake_info


def _nan_representation(prediction: Prediction) -> Any:
    representation = prediction.representation.copy()
    representation[1, 2] = np.nan
    return Prediction(prediction.deltas, prediction.motion_level, representation, prediction.warnings,
                      prediction.conditioning)


def _infinite_representation(prediction: Prediction) -> Any:
    representation = prediction.representation.copy()
    representation[0, 0] = np.inf
    return Prediction(prediction.deltas, prediction.motion_level, representation, prediction.warnings,
                      prediction.conditioning)


def _text_representation(prediction: Prediction) -> Any:
    words = np.full(prediction.representation.shape, "x", dtype=object)
    return Prediction(prediction.deltas, prediction.motion_level, words, prediction.warnings,
                      prediction.conditioning)


def _list_representation(prediction: Prediction) -> Any:
    return Prediction(prediction.deltas, prediction.motion_level, prediction.representation.tolist(),
                      prediction.warnings, prediction.conditioning)


def _no_prediction(prediction: Prediction) -> Any:
    return None


def _same(value: Any) -> Any:
    return value


def _clip_at(fps: float) -> Callable[[Clip], Any]:
    def change(clip: Clip) -> Any:
        return Clip(clip.frames, fps)
    return change


def _frames_only(clip: Clip) -> Any:
    return clip.frames


BROKEN: dict[str, tuple[Callable[[Prediction], Any], Callable[[Clip], Any], str]] = {
    "nan-representation": (_nan_representation, _same, "1 of 32 values not finite"),
    "infinite-representation": (_infinite_representation, _same, "not finite"),
    "text-representation": (_text_representation, _same, "representation of object values, not numbers"),
    "list-representation": (_list_representation, _same, "representation of type list, not an array"),
    "no-prediction": (_no_prediction, _same, "predict returned NoneType, not a prediction"),
    "nan-fps": (_same, _clip_at(float("nan")), "clip at nan frames a second"),
    "infinite-fps": (_same, _clip_at(float("inf")), "clip at inf frames a second"),
    "absurd-fps": (_same, _clip_at(1e9), "clip at 1000000000.0 frames a second"),
    "frames-only": (_same, _frames_only, "decode returned ndarray, not a clip"),
}


class BrokenEngine(FakeEngine):
    """The fake engine, with what predict and decode return changed afterwards."""

    bend_prediction: Callable[[Prediction], Any] = staticmethod(_same)
    bend_clip: Callable[[Clip], Any] = staticmethod(_same)

    def predict(self, *args: Any, **kwargs: Any) -> Any:
        return self.bend_prediction(super().predict(*args, **kwargs))

    def decode(self, *args: Any, **kwargs: Any) -> Any:
        return self.bend_clip(super().decode(*args, **kwargs))


def _registry(script: FakeScript, bend_prediction: Callable[[Prediction], Any],
              bend_clip: Callable[[Clip], Any]) -> EngineRegistry:
    info = fake_info(script, "fake")

    def create(config: Any) -> BrokenEngine:
        engine = BrokenEngine(config, script, info)
        engine.bend_prediction = bend_prediction
        engine.bend_clip = bend_clip
        return engine

    registry = EngineRegistry()
    registry.register(info, create)
    return registry


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_malformed_engine_result_fails_the_job_clearly(project: Project, script: FakeScript,
                                                       make_service: Callable[..., GenerationService],
                                                       case: str) -> None:
    bend_prediction, bend_clip, words = BROKEN[case]
    service = make_service(registry=_registry(script, bend_prediction, bend_clip))
    node, job_id = service.generate(project.tree.root_id, "Character: Qiqi; Motion: wave", seed=3)
    _below, below_job = service.generate(node, "Character: Qiqi; Motion: sit")
    assert service.wait_jobs([job_id, below_job], 30)

    job = service.job(job_id)
    assert job.status is JobStatus.FAILED
    assert words in job.error and "fake engine" in job.error
    assert "bug in the engine" in job.hint
    assert [take.status for take in project.tree.takes_of(node)] == [TakeStatus.FAILED]
    assert project.tree.selected_take(node) is None
    assert service.job(below_job).status is JobStatus.CANCELLED
    assert [raw for raw in script.order("predict")] == ["Character: Qiqi; Motion: wave"]
    assert not project.resolve(project.take_media_dir(job.take_id)).exists()


def test_a_well_formed_result_still_makes_a_take(project: Project, script: FakeScript,
                                                 make_service: Callable[..., GenerationService]) -> None:
    service = make_service(registry=_registry(script, _same, _same))
    node, job_id = service.generate(project.tree.root_id, "Character: Qiqi; Motion: wave", seed=3)
    assert service.wait_jobs([job_id], 30)
    assert service.job(job_id).status is JobStatus.DONE
    assert [take.status for take in project.tree.takes_of(node)] == [TakeStatus.DONE]
