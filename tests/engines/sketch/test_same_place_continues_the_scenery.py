"""The next turn in the same place and at the same time of day goes on from the previous clip's
picture: the scenery, its ground props and the shot size don't jump at the cut.

"Taro walks in the park" (a following camera) then "Taro looks around": every clip started
with the scenery scrolled back to its start, and the new take's seed picked another shot size
and other props, so the park jumped between the two clips although nothing had moved.
Measured on rendered frames: the last frame of one clip against the first of the next.
"""

from __future__ import annotations

import numpy as np
import pytest

from studio.core.instruction import parse_instruction
from studio.engines.base import GenerationContext
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.variation import variation_for

from ..sketch_helpers import as_turn, options, render

SIZE = {"height": 240, "width": 360, "frames": 17, "fps": 8}


def _cut(engine: SketchEngine, first: str, then: str, seeds: tuple[int, int]) -> float:
    """The mean difference (0-255) between the last frame of ``first`` and the first frame of ``then``."""
    before, clip_a = render(engine, first, seed=seeds[0], settings=SIZE)
    context = GenerationContext(history=(as_turn(before, first),))
    after = engine.predict(context, parse_instruction(then), options(SIZE), seeds[1])
    clip_b = engine.decode(after, options(SIZE), seeds[1])
    return float(np.abs(clip_a.frames[-1].astype(np.int16) - clip_b.frames[0].astype(np.int16)).mean())


@pytest.mark.parametrize(("first", "then"), [
    ("Taro walks in the park", "Taro looks around"),
    ("Qiqi runs in the street", "Qiqi waves"),
    ("Yuzu walks in the garden, camera pan", "Yuzu thinks"),
    ("Qiqi looks around in the town, camera orbit", "Qiqi nods"),
    ("Aoi waves in the town, camera zoom", "Aoi walks"),
])
def test_the_next_turn_in_the_same_place_goes_on_from_the_same_picture(engine: SketchEngine, first: str,
                                                                       then: str) -> None:
    seeds = (4, 6)
    own_a, own_b = variation_for(seeds[0]), variation_for(seeds[1])
    assert own_a.framing != own_b.framing and own_a.props != own_b.props, "the seeds alone would cut"
    # Only the character's pose and face may change at the cut, a small part of the frame.
    assert _cut(engine, first, then, seeds) < 3.0


def test_another_time_of_day_is_a_new_picture(engine: SketchEngine) -> None:
    """Evening in the same park is another shot: its props and its shot size are the seed's own."""
    first = "Taro walks in the park"
    before, _ = render(engine, first, seed=4, settings=SIZE)
    after = engine.predict(GenerationContext(history=(as_turn(before, first),)),
                           parse_instruction("Taro looks around at sunset"), options(SIZE), 6)
    own = variation_for(6)
    assert after.conditioning["framing"] == own.framing
    assert after.conditioning["scroll"] == [0.0, 0.0, 0.0]


def test_a_camera_the_instruction_asks_for_may_change_the_shot(engine: SketchEngine) -> None:
    first = "Taro walks in the park"
    before, _ = render(engine, first, seed=4, settings=SIZE)
    context = GenerationContext(history=(as_turn(before, first),))
    kept = engine.predict(context, parse_instruction("Taro looks around"), options(SIZE), 6)
    asked = engine.predict(context, parse_instruction("Taro looks around, camera static"), options(SIZE), 6)
    assert kept.conditioning["framing"] == before.conditioning["end_shot"]
    assert asked.conditioning["framing"] == variation_for(6).framing
    assert asked.conditioning["props"] == kept.conditioning["props"], "the props stay where they lie"
