"""A cast member the instruction names besides the acting character is drawn with them.

"Qiqi waves at Yuzu in the park" drew Qiqi waving at nobody: only talking, meeting people and
hugging drew a second figure. Measured on rendered frames: the friend's pixels are those that
change when the same clip is drawn without the friend.
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

SIZE = {"height": 240, "width": 360, "frames": 9, "fps": 8}


def _friend_mask(conditioning: dict[str, Any], index: int) -> np.ndarray:
    """The pixels of frame ``index`` that belong to the friend (drawn with and without them)."""
    plan = plan_from_conditioning(conditioning)
    with_friend = ClipRenderer(plan).frame(index).astype(np.int16)
    alone = ClipRenderer(replace(plan, companion_look=None)).frame(index).astype(np.int16)
    return np.asarray(np.abs(with_friend - alone).sum(axis=2) > 30)


def _look_as_main(engine: SketchEngine, name: str) -> object:
    return ClipRenderer(plan_from_conditioning(predict(engine, f"{name} waves").conditioning)).spec.look


@pytest.mark.parametrize(("text", "character", "friend", "together"), [
    ("Qiqi waves at Yuzu in the park", "Qiqi", "Yuzu", "wave"),
    ("Aoi dances with Taro", "Aoi", "Taro", "dance"),
    ("Qiqi eats lunch with Sosuke", "Qiqi", "Sosuke", "eat"),
    ("Qiqi sits next to Yuzu", "Qiqi", "Yuzu", "sit"),
    ("Taro laughs at Aoi", "Taro", "Aoi", "laugh"),
    ("Qiqi points at Taro in the garden", "Qiqi", "Taro", "idle"),
])
def test_the_named_friend_faces_the_character(engine: SketchEngine, text: str, character: str, friend: str,
                                               together: str) -> None:
    for seed in range(2):
        cond = dict(predict(engine, text, seed=seed, settings=SIZE).conditioning)
        assert (cond["character"], cond["companion"]) == (character, friend), text
        cond.update(framing=1.0, props=[])  # the whole stage in the shot
        renderer = ClipRenderer(plan_from_conditioning(cond))
        assert renderer.companion_spec is not None, (text, "the friend is drawn")
        assert renderer.companion_spec.look == _look_as_main(engine, friend), (text, "drawn as the cast draws them")
        assert renderer.companion_spec.anim == together, text
        last = SIZE["frames"] - 1
        mask = _friend_mask(cond, last)
        assert mask.sum() > 300, (text, seed, "the friend is in the picture")
        x, facing, _ = renderer.placement(last)
        middle = float(np.nonzero(mask)[1].mean())
        assert facing * (middle - x) > 0.2 * renderer.scale, (text, seed, "in front of the character")
        assert not mask[:, [0, 1, -2, -1]].any(), (text, seed, "inside the frame")


def test_a_walker_and_the_friend_walk_side_by_side(engine: SketchEngine) -> None:
    cond = dict(predict(engine, "Qiqi walks with Yuzu in the park", settings=SIZE).conditioning)
    cond.update(framing=1.0, props=[])
    assert cond["companion"] == "Yuzu"
    renderer = ClipRenderer(plan_from_conditioning(cond))
    assert renderer.companion_spec is not None and renderer.companion_spec.anim == "walk"
    for index in (0, SIZE["frames"] - 1):
        mask = _friend_mask(cond, index)
        assert mask.sum() > 300, index
        x, facing, _ = renderer.placement(index)
        middle = float(np.nonzero(mask)[1].mean())
        # Beside the walker, a little behind: not standing in the way in front of them.
        assert -0.6 * renderer.scale < facing * (middle - x) < 0.0, (index, middle, x)


@pytest.mark.parametrize("text", ["Qiqi waves in the park", "Aoi dances", "Qiqi eats lunch", "Qiqi walks"])
def test_nobody_named_draws_nobody_else(engine: SketchEngine, text: str) -> None:
    cond = predict(engine, text, settings=SIZE).conditioning
    assert cond["companion"] == ""
    assert ClipRenderer(plan_from_conditioning(cond)).companion_spec is None


@pytest.mark.parametrize(("text", "warned"), [
    ("Qiqi sleeps next to Yuzu in the bedroom", True), ("Qiqi climbs a ladder with Taro", True),
    ("Qiqi waits for Yuzu in the park", False), ("Qiqi thinks about Taro", False),
])
def test_a_friend_who_would_look_wrong_or_is_not_there_is_not_drawn(engine: SketchEngine, text: str,
                                                                      warned: bool) -> None:
    prediction = predict(engine, text, settings=SIZE)
    assert prediction.conditioning["companion"] == ""
    assert ClipRenderer(plan_from_conditioning(prediction.conditioning)).companion_spec is None
    said = [w for w in prediction.warnings if "not drawn" in w]
    assert bool(said) == warned, prediction.warnings


def test_the_friend_is_in_the_frame_after_walking_to_the_edge(engine: SketchEngine) -> None:
    """At the stage's edge the character turns to the side with room for the friend in front."""
    walk = "Character: Aoi; Motion: walk; Background: day classroom."
    size = {**SIZE, "frames": 17}  # long enough to walk to the edge
    walks = [predict(engine, walk, seed=s, settings=size) for s in range(8)]
    to_the_edge = [w for w in walks if w.conditioning["facing"] * w.conditioning["end_x"] > 0.3]
    assert to_the_edge, "some walks end at the edge of the stage, facing it"
    for before in to_the_edge[:2]:
        text = "Aoi waves at Taro in the classroom"
        after = engine.predict(GenerationContext(history=(as_turn(before, walk),)), parse_instruction(text),
                               options(size), 1)
        assert after.conditioning["continued"] is True and after.conditioning["companion"] == "Taro"
        mask = _friend_mask(dict(after.conditioning), size["frames"] // 2)
        assert mask.sum() > 300, "the friend is drawn"
        assert not mask[:, [0, 1, -2, -1]].any(), before.conditioning["end_x"]
