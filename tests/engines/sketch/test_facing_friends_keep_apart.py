"""A friend standing (or sitting) in front of the character never overlaps them.

"Qiqi waves at Yuzu" drew Yuzu so close that Qiqi's waving arm and head covered Yuzu's face and
hair. Measured on rendered frames, without the effects around the figures (a bubble, sparkles):
the character's box is what the clip draws over the scenery when drawn alone, the friend's box
what drawing the friend adds; the two boxes never share a column, and both stay in the frame.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from studio.core.instruction import parse_instruction
from studio.engines.base import GenerationContext
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipPlan, ClipRenderer, plan_from_conditioning
from studio.engines.sketch.vocabulary import Effect, Prop

from ..sketch_helpers import as_turn, options, predict

SIZE = {"height": 240, "width": 360, "frames": 9, "fps": 8}
PAIRS = [("Qiqi", "Yuzu"), ("Aoi", "Yuzu"), ("Yuzu", "Aoi"), ("Taro", "Sosuke")]
TEXTS = ["{a} waves at {b} in the park", "{a} talks with {b}", "{a} throws a ball to {b}", "{a} laughs with {b}",
         "{a} nods at {b}", "{a} reads with {b} in the library", "{a} eats lunch with {b} on the bench",
         "{a} drinks tea with {b} on chairs in the cafe"]


def _plan(cond: dict[str, Any]) -> ClipPlan:
    cond = {**cond, "framing": 1.0, "shot": 1.0, "props": []}  # the whole stage, nothing else on the ground
    plan = plan_from_conditioning(cond)
    # The ball flies between the two: it belongs to neither figure's box.
    prop = Prop.NONE if plan.motion.prop == Prop.BALL else plan.motion.prop
    return replace(plan, motion=replace(plan.motion, effect=Effect.NONE, prop=prop), seat="", seats=())


def _columns(plan: ClipPlan, index: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """(first, last) column of the character and of the friend in frame ``index``, above the
    ground shadows."""
    alone = replace(plan, companion_look=None)
    renderer = ClipRenderer(alone)
    scenery = np.asarray(renderer.background(renderer.camera_at(index / (plan.frames - 1)))).astype(np.int16)
    drawn = renderer.frame(index).astype(np.int16)
    both = ClipRenderer(plan).frame(index).astype(np.int16)
    above = round(renderer.ground_y - 0.06 * renderer.scale)
    me = np.nonzero((np.abs(drawn - scenery).sum(axis=2) > 30)[:above])[1]
    friend = np.nonzero((np.abs(both - drawn).sum(axis=2) > 30)[:above])[1]
    assert me.size > 300 and friend.size > 300, "both are drawn"
    return (int(me.min()), int(me.max())), (int(friend.min()), int(friend.max()))


@pytest.mark.parametrize("text", TEXTS)
def test_the_two_figures_never_overlap(engine: SketchEngine, text: str) -> None:
    for a, b in PAIRS:
        words = text.format(a=a, b=b)
        for seed in range(2):
            cond = dict(predict(engine, words, seed=seed, settings=SIZE).conditioning)
            assert cond["companion"] == b, words
            plan = _plan(cond)
            for index in range(0, SIZE["frames"], 2):
                me, friend = _columns(plan, index)
                first, second = (me, friend) if plan.facing > 0 else (friend, me)
                assert first[1] < second[0], (words, seed, index, me, friend, "they overlap")
                assert min(me[0], friend[0]) > 1 and max(me[1], friend[1]) < SIZE["width"] - 2, (words, "in frame")


def test_a_wave_or_a_throw_keeps_more_room_than_talking(engine: SketchEngine) -> None:
    def gap(text: str) -> float:
        renderer = ClipRenderer(_plan(dict(predict(engine, text, settings=SIZE).conditioning)))
        return abs(renderer.companion_x(0.0, 0.5)) / renderer.scale

    talk = gap("Qiqi talks with Yuzu")
    assert gap("Qiqi waves at Yuzu") > talk + 0.05
    assert gap("Qiqi throws a ball to Yuzu") > talk + 0.05


def test_at_the_stage_edge_the_character_turns_to_keep_the_friend_in_the_frame(engine: SketchEngine) -> None:
    """After walks that end at the edge of the stage facing it, the wider wave still fits both figures."""
    walk = "Character: Aoi; Motion: walk; Background: day classroom."
    long = {**SIZE, "frames": 17}
    walks = [predict(engine, walk, seed=s, settings=long) for s in range(8)]
    to_the_edge = [w for w in walks if w.conditioning["facing"] * w.conditioning["end_x"] > 0.3]
    assert to_the_edge, "some walks end at the edge of the stage, facing it"
    for first in to_the_edge[:3]:
        after = engine.predict(GenerationContext(history=(as_turn(first, walk),)),
                               parse_instruction("Aoi waves at Yuzu in the classroom"), options(long), 1)
        assert after.conditioning["continued"] is True
        me, friend = _columns(_plan(dict(after.conditioning)), long["frames"] - 1)
        assert min(me[0], friend[0]) > 1 and max(me[1], friend[1]) < SIZE["width"] - 2, (me, friend)
