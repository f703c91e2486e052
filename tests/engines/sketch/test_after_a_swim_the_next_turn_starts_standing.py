"""A turn after a swim starts with the character standing, not lying on the dry ground.

"Qiqi swims in the sea" then "Qiqi walks" (the same place, so the clip goes on from the last
pose) started with Qiqi flat on the pier in her swimming pose and getting up over a third of
the clip. Measured on rendered frames: the top of the character (pixels that change when she
is drawn elsewhere) in the first frame against the last one, where she stands.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from studio.core.instruction import parse_instruction
from studio.engines.base import GenerationContext
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning

from ..sketch_helpers import as_turn, options, predict

SIZE = {"height": 240, "width": 360, "frames": 17, "fps": 8}


def _top_row(conditioning: dict[str, Any], index: int) -> int:
    """The highest pixel row of the character in frame ``index`` (a wide shot)."""
    plan = replace(plan_from_conditioning(conditioning), framing=1.0, props=())
    drawn = ClipRenderer(plan).frame(index).astype(np.int16)
    empty = ClipRenderer(replace(plan, start_x=5.0)).frame(index).astype(np.int16)
    rows = np.flatnonzero((np.abs(drawn - empty).sum(axis=2) > 30).any(axis=1))
    assert rows.size, "the character is drawn"
    return int(rows[0])


@pytest.mark.parametrize("then", ["Qiqi waves", "Qiqi walks, camera static", "Qiqi eats bread"])
def test_the_turn_after_a_swim_starts_standing(engine: SketchEngine, then: str) -> None:
    text = "Character: Qiqi; Motion: swim; Background: day sea; Camera: static."
    before = predict(engine, text, seed=2, settings=SIZE)
    assert abs(before.conditioning["end_pose"]["rot"]) > 45, "the swim ends lying in the water"
    after = engine.predict(GenerationContext(history=(as_turn(before, text),)), parse_instruction(then),
                           options(SIZE), 2)
    assert after.conditioning["continued"] is True
    start, end = _top_row(after.conditioning, 0), _top_row(after.conditioning, SIZE["frames"] - 1)
    # A figure unit is 0.42 of the height; her head starts no more than a tenth of it
    # below where it is at the end.
    assert start - end <= 0.1 * 0.42 * SIZE["height"], (then, start, end)


def test_a_swim_after_a_swim_goes_on_swimming(engine: SketchEngine) -> None:
    text = "Character: Qiqi; Motion: swim; Background: day sea; Camera: static."
    before = predict(engine, text, seed=2, settings=SIZE)
    after = engine.predict(GenerationContext(history=(as_turn(before, text),)), parse_instruction(text),
                           options(SIZE), 3)
    assert after.conditioning["start_pose"] == before.conditioning["end_pose"]
