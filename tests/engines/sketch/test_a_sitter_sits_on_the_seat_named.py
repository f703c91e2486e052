""""Qiqi sits on a bench" draws the bench under her, her hips on its seat and her legs hanging.

The word "bench" (or chair, sofa, couch, stool, swing, seat) only ever made the motion 'sit':
she sat on the ground. The motion stays 'sit'; the seat is drawn under the sitter, in the
scene's light. Measured on rendered frames: the seat's pixels are those that change when the
same clip is drawn without it, and the figure is what the frame adds to the scenery.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from studio.core.instruction import parse_instruction
from studio.engines.base import GenerationContext
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.poses import SEAT_TOP
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning
from studio.engines.sketch.skeleton import HIP_HEIGHT

from ..sketch_helpers import as_turn, options, predict
from .seat_helpers import LAST, SIZE, seat_mask, still


def _figure_top(cond: dict[str, Any]) -> int:
    """The highest row of the figure (its hair or bow) in the last frame."""
    renderer = ClipRenderer(plan_from_conditioning(cond))
    scenery = np.asarray(renderer.background(renderer.camera_at(1.0))).astype(int)
    figure = np.abs(renderer.frame(LAST).astype(int) - scenery).sum(axis=2) > 60
    return int(np.nonzero(figure)[0].min())


@pytest.mark.parametrize(("text", "seat"), [
    ("Qiqi sits on a bench", "bench"), ("Qiqi sits on a chair in the bedroom", "chair"),
    ("Qiqi sits on the sofa in the cafe", "sofa"), ("Sosuke sat on the couch in the library", "sofa"),
    ("Qiqi sits on a stool in the kitchen", "stool"), ("Qiqi sits on a swing", "swing"),
    ("Character: Aoi; Motion: sit on the bench; Background: night street", "bench"),
    ("Qiqi takes a seat in the classroom", "chair"), ("Qiqi takes a seat in the park", "bench"),
])
def test_the_seat_is_drawn_under_the_sitter(engine: SketchEngine, text: str, seat: str) -> None:
    for seed in range(2):
        cond = still(text, engine, seed)
        assert (cond["motion"], cond["seat"]) == ("sit", seat), text
        renderer = ClipRenderer(plan_from_conditioning(cond))
        mask = seat_mask(cond)
        assert mask.sum() > 100, (text, seed, "the seat is drawn")
        rows, cols = np.nonzero(mask)
        x, _, pose = renderer.placement(LAST)
        unit = renderer.scale
        assert abs(float(np.median(cols)) - x) < 0.3 * unit, (text, seed, "under the sitter")
        assert rows.max() >= renderer.ground_y - 0.05 * unit, (text, seed, "standing on the floor")
        # The hips rest on the seat's top, not on the floor.
        hip = renderer.surface_at(1.0) - (HIP_HEIGHT + pose.y) * unit
        assert abs(hip - (renderer.ground_y - SEAT_TOP * unit)) < 0.02 * unit, (text, seed)


def test_on_a_bench_the_sitter_is_higher_than_on_the_ground(engine: SketchEngine) -> None:
    on_the_bench = _figure_top(still("Qiqi sits on a bench in the park", engine))
    on_the_ground = _figure_top(still("Qiqi sits in the park", engine))
    unit = ClipRenderer(plan_from_conditioning(still("Qiqi sits in the park", engine))).scale
    assert on_the_ground - on_the_bench > 0.08 * unit, (on_the_bench, on_the_ground)


def test_the_seat_is_lit_like_the_scene(engine: SketchEngine) -> None:
    def brightness(text: str) -> float:
        cond = still(text, engine)
        frame = ClipRenderer(plan_from_conditioning(cond)).frame(LAST).astype(float)
        return float(frame[seat_mask(cond)].mean())

    night = brightness("Qiqi sits on a bench in the park at night")
    assert night < 0.7 * brightness("Qiqi sits on a bench in the park")


@pytest.mark.parametrize("text", ["Qiqi sits in the park", "Qiqi sits on the grass", "Qiqi dances on a bench",
                                  "Qiqi runs past a bench in the park", "Qiqi stands on a chair and waves"])
def test_no_seat_unless_a_sitter_names_one(engine: SketchEngine, text: str) -> None:
    cond = still(text, engine)
    assert cond["seat"] == ""
    assert ClipRenderer(plan_from_conditioning(cond)).plan.seat == ""


def test_a_friend_sits_on_the_bench_too(engine: SketchEngine) -> None:
    cond = still("Aoi sits next to Yuzu on the bench in the park", engine)
    assert (cond["seat"], cond["companion"]) == ("bench", "Yuzu")
    renderer = ClipRenderer(plan_from_conditioning(cond))
    assert renderer.companion_spec is not None and renderer.companion_spec.anim == "sit_seat"
    cols = np.nonzero(seat_mask(cond))[1]
    x = renderer.placement(LAST)[0]
    friend = renderer.companion_x(renderer.hip_screen_x(1.0), 1.0)
    assert cols.min() < min(x, friend) and max(x, friend) < cols.max(), "one bench under both"


def test_sitting_on_again_holds_the_pose_on_the_seat(engine: SketchEngine) -> None:
    text = "Qiqi sits on a bench in the park"
    first = predict(engine, text, settings=SIZE)
    again = engine.predict(GenerationContext(history=(as_turn(first, text),)), parse_instruction(text),
                           options(SIZE), 1)
    assert again.conditioning["hold"] is True and again.conditioning["seat"] == "bench"
    ground = "Qiqi sits in the park"
    after_ground = engine.predict(GenerationContext(history=(as_turn(predict(engine, ground, settings=SIZE),
                                                                     ground),)),
                                  parse_instruction(text), options(SIZE), 1)
    assert after_ground.conditioning["hold"] is False, "getting up from the ground onto the bench"


def test_the_next_turn_gets_up_from_the_seat(engine: SketchEngine) -> None:
    """The next turn starts from the pose on the seat: the seat stays where it stands, under the
    character at the start, instead of the character crouching in the air at the seat's height."""
    text = "Qiqi sits on a chair in the classroom"
    first = predict(engine, text, settings=SIZE)
    after = engine.predict(GenerationContext(history=(as_turn(first, text),)), parse_instruction("Qiqi dances"),
                           options(SIZE), 1)
    cond = dict(after.conditioning)
    assert (cond["continued"], cond["seat"], cond["start_seat"]) == (True, "", "chair")
    cond.update(framing=1.0, props=[])
    plan = plan_from_conditioning(cond)
    renderer = ClipRenderer(plan)
    with_seat = renderer.frame(0).astype(np.int16)
    without = ClipRenderer(replace(plan, seats=())).frame(0).astype(np.int16)
    cols = np.nonzero(np.abs(with_seat - without).sum(axis=2) > 30)[1]
    assert cols.size > 100, "the chair is still there"
    assert abs(float(np.median(cols)) - renderer.placement(0)[0]) < 0.3 * renderer.scale, "under the character"
    fresh = predict(engine, "Qiqi waves in the classroom", settings=SIZE).conditioning
    assert fresh["start_seat"] == ""
