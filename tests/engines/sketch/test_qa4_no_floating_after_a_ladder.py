"""The next turn in the same place starts from the previous clip's last pose, but the ladder,
railing or flying broom that held the character up is not drawn in it.

"Yuzu climbs" then "Yuzu waves" started with Yuzu hanging in the empty air where the top of
the ladder had been, sinking slowly to the ground over the first third of the clip; the same
after sitting on a railing or flying on a broomstick. Measured on rendered frames: the top of
the character (pixels that change when she is drawn elsewhere) in the first frame against the
last one, where she stands waving.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from studio.core.instruction import parse_instruction
from studio.engines.base import GenerationContext
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning

from ..sketch_helpers import as_turn, options, predict

SIZE = {"height": 240, "width": 360, "frames": 17, "fps": 8}


def _top_row(conditioning: dict, index: int) -> int:  # type: ignore[type-arg]
    """The highest pixel row of the character in frame ``index`` (a wide shot)."""
    plan = replace(plan_from_conditioning(conditioning), framing=1.0, props=())
    drawn = ClipRenderer(plan).frame(index).astype(np.int16)
    empty = ClipRenderer(replace(plan, start_x=5.0)).frame(index).astype(np.int16)
    rows = np.flatnonzero((np.abs(drawn - empty).sum(axis=2) > 30).any(axis=1))
    assert rows.size, "the character is drawn"
    return int(rows[0])


@pytest.mark.parametrize("first", ["climb", "sit on railing", "fly on broomstick"])
def test_the_next_turn_starts_on_the_ground(engine: SketchEngine, first: str) -> None:
    text = f"Character: Yuzu; Motion: {first}; Background: day park; Camera: static."
    before = predict(engine, text, seed=1, settings=SIZE)
    after = engine.predict(GenerationContext(history=(as_turn(before, text),)),
                           parse_instruction("Yuzu waves"), options(SIZE), 1)
    assert after.conditioning["continued"] is True
    start, end = _top_row(after.conditioning, 0), _top_row(after.conditioning, SIZE["frames"] - 1)
    # A figure unit is 0.42 of the height; her head starts no more than a twentieth of it
    # above where it ends up standing.
    assert end - start <= 0.05 * 0.42 * SIZE["height"], (first, start, end)
