"""Helpers of the tests of seats and friends: turns played in a row, a turn's conditioning as a
still of the whole stage, and the pixels its seat covers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from studio.core.instruction import parse_instruction
from studio.core.model import Location
from studio.engines.base import GenerationContext, Prediction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning

from ..sketch_helpers import as_turn, options, predict

SIZE = {"height": 240, "width": 360, "frames": 9, "fps": 8}
LAST = SIZE["frames"] - 1


def still(text: str, engine: SketchEngine, seed: int = 0) -> dict[str, Any]:
    """The conditioning of ``text`` at :data:`SIZE`, with the whole stage in the shot and no
    ground props (so that only the seat and the figures differ from the scenery)."""
    cond = dict(predict(engine, text, seed=seed, settings=SIZE).conditioning)
    cond.update(framing=1.0, props=[])
    return cond


def seat_mask(cond: dict[str, Any]) -> np.ndarray:
    """The pixels of the last frame that belong to the seat (or seats)."""
    plan = plan_from_conditioning(cond)
    seated = ClipRenderer(plan).frame(LAST).astype(np.int16)
    without = ClipRenderer(replace(plan, seat="")).frame(LAST).astype(np.int16)
    return np.asarray(np.abs(seated - without).sum(axis=2) > 30)


def play_turns(engine: SketchEngine, texts: Sequence[str], locations: Sequence[Location] = ()) -> list[Prediction]:
    """``texts`` predicted in a row at :data:`SIZE` (seeds 0, 1, ...), each continuing the ones before."""
    history: list[Any] = []
    out = []
    for seed, text in enumerate(texts):
        context = GenerationContext(history=tuple(history), locations=tuple(locations))
        pred = engine.predict(context, parse_instruction(text), options(SIZE), seed)
        history.append(as_turn(pred, text))
        out.append(pred)
    return out
