"""The small props dressing the ground (a flower, a stone, a bird...) are in the scene's light.

At night the ground, the houses and the character are darkened, but the flowers a take puts
on the ground kept their daytime colours and glowed bright pink on the dark rooftop.
Measured on rendered frames: the pixels a prop changes, by day and at night.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning
from studio.engines.sketch.variation import PropPlacement, SmallProp

from ..sketch_helpers import predict

SIZE = {"height": 240, "width": 360, "frames": 3, "fps": 8}
LUMA = np.array([0.299, 0.587, 0.114], dtype=np.float32)


def _prop_brightness(engine: SketchEngine, time: str, kind: SmallProp) -> float:
    """Mean brightness of the pixels the prop covers."""
    pred = predict(engine, f"Character: Taro; Motion: wave; Background: {time} rooftop; Camera: static.",
                   settings=SIZE)
    plan = replace(plan_from_conditioning(pred.conditioning), start_x=-0.35, framing=1.0)
    with_prop = ClipRenderer(replace(plan, props=(PropPlacement(kind, 0.3, 1.3),))).frame(0).astype(np.float32)
    without = ClipRenderer(replace(plan, props=())).frame(0).astype(np.float32)
    where = np.abs(with_prop - without).sum(axis=2) > 40
    assert where.sum() > 20, "the prop is drawn"
    return float((with_prop[where] @ LUMA).mean())


@pytest.mark.parametrize("kind", [SmallProp.FLOWER, SmallProp.STONE, SmallProp.BIRD])
def test_a_prop_is_darker_at_night(engine: SketchEngine, kind: SmallProp) -> None:
    day = _prop_brightness(engine, "day", kind)
    night = _prop_brightness(engine, "night", kind)
    assert night < 0.75 * day, (kind, day, night)
