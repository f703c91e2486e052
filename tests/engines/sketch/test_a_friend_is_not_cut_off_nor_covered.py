"""A friend drawn with the character is seen whole: not cut off by a closer shot, not lying in
the other swimmer, not behind a shout.

A closer shot (a zoom, or a take's medium shot in a portrait frame) was centred on the
character alone and cut the friend in front of them in half at the frame's edge; a friend
swimming along lay with their head in the character's; a shout's "!" went on the friend's side,
over the friend's hair. Measured on rendered frames: the friend's pixels are those that change
when the friend is drawn in other colours (same shape, so the shot is the same).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.look import Look
from studio.engines.sketch.render import ClipPlan, ClipRenderer, plan_from_conditioning
from studio.engines.sketch.vocabulary import Effect, Prop

from ..sketch_helpers import predict

LANDSCAPE = {"height": 240, "width": 360, "frames": 9, "fps": 8}
PORTRAIT = {"height": 640, "width": 360, "frames": 5, "fps": 8}


def _recoloured(look: Look) -> Look:
    """The same figure in other colours: every part of it looks different."""
    return replace(look, hair_color=(0, 200, 0), skin_color=(0, 90, 255), eye_color=(255, 255, 0),
                   outfit_color=(255, 0, 255), outfit_accent=(0, 255, 255))


def _mask(plan: ClipPlan, other: ClipPlan, index: int) -> np.ndarray:
    """The pixels of frame ``index`` that differ between the two plans."""
    a = ClipRenderer(plan).frame(index).astype(np.int16)
    b = ClipRenderer(other).frame(index).astype(np.int16)
    return np.asarray(np.abs(a - b).sum(axis=2) > 40)


def _friend(plan: ClipPlan, index: int) -> np.ndarray:
    assert plan.companion_look is not None
    return _mask(plan, replace(plan, companion_look=_recoloured(plan.companion_look)), index)


def _plan(engine: SketchEngine, text: str, seed: int, settings: dict[str, Any]) -> ClipPlan:
    return plan_from_conditioning(predict(engine, text, seed=seed, settings=settings).conditioning)


@pytest.mark.parametrize(("text", "settings"), [
    ("Qiqi waves at Yuzu in the park, zoom camera", LANDSCAPE),
    ("Qiqi sits on a bench with Taro in the park, zoom in", LANDSCAPE),
    ("Qiqi waves at Yuzu in the park", PORTRAIT),
    ("Aoi eats lunch with Sosuke on a bench", PORTRAIT),
    ("Qiqi sits on a swing with Yuzu in the park", PORTRAIT),
])
def test_a_closer_shot_keeps_the_friend_in_the_frame(engine: SketchEngine, text: str,
                                                     settings: dict[str, Any]) -> None:
    closer = 0
    for seed in range(4):
        plan = _plan(engine, text, seed, settings)
        renderer = ClipRenderer(plan)
        assert renderer.companion_spec is not None, text
        last = plan.frames - 1
        closer += renderer._zoom(renderer.camera_at(1.0)) > 1.01
        for index in (0, last):
            friend = _friend(plan, index)
            assert friend.sum() > 300, (text, seed, index, "the friend is in the picture")
            edges = int(friend[:, [0, 1, -2, -1]].sum())
            assert edges == 0, (text, seed, index, "the friend is cut off by the frame's edge", edges)
    assert closer, (text, "some takes are closer shots")


@pytest.mark.parametrize("text", ["Qiqi swims with Yuzu in the sea", "Taro swims with Aoi in the river",
                                  "Qiqi flies on a broomstick with Yuzu"])
def test_a_friend_coming_along_is_not_drawn_inside_the_character(engine: SketchEngine, text: str) -> None:
    for seed in range(2):
        plan = _plan(engine, text, seed, LANDSCAPE)
        index = plan.frames // 2
        friend = _friend(plan, index)
        me = _mask(plan, replace(plan, look=_recoloured(plan.look)), index)
        assert friend.sum() > 200 and me.sum() > 200, (text, seed)
        my_columns = np.nonzero(me.any(axis=0))[0]
        low, high = int(np.percentile(my_columns, 10)), int(np.percentile(my_columns, 90))
        columns = np.nonzero(friend)[1]
        inside = float(((columns >= low) & (columns <= high)).mean())
        assert inside < 0.3, (text, seed, "the friend is drawn in the character", round(inside, 2))


@pytest.mark.parametrize(("text", "settings"), [
    ("Qiqi shouts at Yuzu in the park", LANDSCAPE),
    ("Taro yells at Aoi in the street", LANDSCAPE),
    ("Qiqi shouts at Yuzu on a bench", LANDSCAPE),
    ("Qiqi shouts at Taro in the park", PORTRAIT),
])
def test_a_shout_is_not_drawn_over_the_friend(engine: SketchEngine, text: str, settings: dict[str, Any]) -> None:
    for seed in range(3):
        plan = _plan(engine, text, seed, settings)
        assert plan.motion.effect == Effect.SPEECH and plan.companion_look is not None, text
        quiet = replace(plan, motion=replace(plan.motion, effect=Effect.NONE))
        for index in (0, plan.frames - 1):
            seen, without = int(_friend(plan, index).sum()), int(_friend(quiet, index).sum())
            assert seen >= 0.98 * without, (text, seed, index, "the shout covers the friend", seen, without)


@pytest.mark.parametrize("text", ["Qiqi sits on the railing with Yuzu on the rooftop",
                                  "Aoi perches on the fence next to Taro in the park"])
def test_a_friend_beside_a_railing_stands_in_front_of_it(engine: SketchEngine, text: str) -> None:
    """The railing crossed the friend's body as if they stood in it, off the edge of the roof."""
    for seed in range(2):
        plan = _plan(engine, text, seed, LANDSCAPE)
        assert plan.companion_look is not None, text
        no_railing = replace(plan, motion=replace(plan.motion, prop=Prop.NONE))
        index = plan.frames - 1
        seen, whole = int(_friend(plan, index).sum()), int(_friend(no_railing, index).sum())
        assert seen >= 0.98 * whole, (text, seed, "the railing is drawn over the friend", seen, whole)
