"""A friend who comes along (talk, meet people, hug) stands in front of the character.

After "Aoi walks" in the classroom ended at the edge of the stage facing the wall, "Aoi talks"
put the friend in front of her, cut in half by the frame's edge. Measured on rendered frames:
the friend's pixels are those that change when the same clip is drawn without the friend.
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
WALK = "Character: Aoi; Motion: walk; Background: day classroom."


def _friend(conditioning: dict) -> np.ndarray:  # type: ignore[type-arg]
    """A mask of the pixels of the middle frame that belong to the friend."""
    plan = plan_from_conditioning(conditioning)
    with_friend = ClipRenderer(plan).frame(plan.frames // 2).astype(np.int16)
    alone = ClipRenderer(replace(plan, companion_look=None)).frame(plan.frames // 2).astype(np.int16)
    return np.asarray(np.abs(with_friend - alone).sum(axis=2) > 30)


@pytest.mark.parametrize("motion", ["talk", "hug"])
def test_the_friend_is_in_the_frame_after_walking_to_the_edge(engine: SketchEngine, motion: str) -> None:
    text = f"Character: Aoi; Motion: {motion}."
    centred = _friend(predict(engine, f"{text[:-1]}; Background: day classroom.", settings=SIZE).conditioning)
    assert centred.sum() > 300, "the friend is drawn"
    assert not centred[:, [0, 1, -2, -1]].any()
    walks = [predict(engine, WALK, seed=s, settings=SIZE) for s in range(8)]
    to_the_edge = [w for w in walks if w.conditioning["facing"] * w.conditioning["end_x"] > 0.3]
    assert to_the_edge, "some walks end at the edge of the stage, facing it"
    for walk in to_the_edge[:2]:
        after = engine.predict(GenerationContext(history=(as_turn(walk, WALK),)), parse_instruction(text),
                               options(SIZE), 1)
        assert after.conditioning["continued"] is True
        friend = _friend(after.conditioning)
        assert friend.sum() > 300, "the friend is drawn"
        # No part of the friend touches the left or right edge of the picture.
        at_the_edges = int(friend[:, [0, 1, -2, -1]].sum())
        assert at_the_edges == 0, (walk.conditioning["end_x"], at_the_edges)
