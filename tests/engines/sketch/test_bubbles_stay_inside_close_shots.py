"""A speech bubble or a symbol above the head stays inside a close shot.

In the closest zoomed shots the shot keeps room above the hip for the head, but not for a
bubble above it: the frame's top cut the bubble (a thought bubble lost its top half), and
in a narrow shot its side cut a speech bubble beside the head. The
bubble is found as what changes in a frame when the figure is drawn with and without it.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning
from studio.engines.sketch.variation import MAX_SHOT
from studio.engines.sketch.vocabulary import Effect

from ..sketch_helpers import predict

SIZES = ({"height": 180, "width": 320, "frames": 5, "fps": 8}, {"height": 144, "width": 144, "frames": 5, "fps": 8})


@pytest.mark.parametrize("motion", ["think", "talk", "shout", "sing"])
def test_the_bubble_is_not_cut_by_the_edges_of_the_shot(engine: SketchEngine, motion: str) -> None:
    cut = []
    for settings in SIZES:
        for seed in range(4):
            text = f"Character: Qiqi; Motion: {motion}; Background: day park; Camera: zoom."
            cond = dict(predict(engine, text, seed=seed, settings=settings).conditioning)
            cond["shot"] = MAX_SHOT  # a zoomed-in shot carried on in the same place: the closest there is
            renderer = ClipRenderer(plan_from_conditioning(cond))
            assert renderer.spec.effect != Effect.NONE
            last = settings["frames"] - 1  # the closest moment of the zoom
            with_bubble = renderer.frame(last).astype(int)
            renderer.spec = replace(renderer.spec, effect=Effect.NONE)
            without = renderer.frame(last).astype(int)
            bubble = np.abs(with_bubble - without).sum(axis=2) > 24
            assert bubble.any(), (motion, seed, "the bubble is drawn")
            if bubble[0].any() or bubble[:, 0].any() or bubble[:, -1].any():
                cut.append((settings["width"], seed))
    assert not cut, (motion, cut)
