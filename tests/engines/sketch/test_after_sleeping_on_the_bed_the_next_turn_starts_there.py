"""A turn after a sleep on the bed starts on the bed and gets up from there.

The next turn ("wakes up and stretches", "walks to the door") started from the lying pose at
floor height, a jump down from the bed in its first frame (and, after a pan, beside it and
turned round). Measured on the pictures: the figure is what a frame adds to its scenery.
"""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, frame_times, plan_from_conditioning

from ..sketch_helpers import as_turn, predict

SIZES = ({"height": 180, "width": 320, "frames": 9, "fps": 8}, {"height": 200, "width": 200, "frames": 9, "fps": 8})


def _figure(renderer: ClipRenderer, index: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, columns) of the pixels the figure adds to the scenery in frame ``index``."""
    t = frame_times(renderer.plan.frames)[index]
    scenery = np.asarray(renderer.background(renderer.camera_at(t))).astype(int)
    added = np.abs(renderer.frame(index).astype(int) - scenery).sum(axis=2) > 90
    rows, cols = np.nonzero(added)
    assert rows.size, index
    return rows, cols


@pytest.mark.parametrize("camera", ["static", "pan"])
@pytest.mark.parametrize("then", ["Sosuke wakes up and stretches.", "Sosuke walks to the door.", "Sosuke waves."])
def test_the_next_turn_starts_where_the_sleeper_lay(engine: SketchEngine, camera: str, then: str) -> None:
    for settings in SIZES:
        for seed in range(2):
            first = f"Sosuke sleeps in the bedroom. Camera: {camera}."
            slept = predict(engine, first, seed=seed, settings=settings)
            woke = predict(engine, then, seed=seed, settings=settings, history=(as_turn(slept, first),))
            assert woke.conditioning["continued"], "the same place"
            # The whole room in the shot, nothing else on the floor: only the figure differs.
            plain = {"props": [], "framing": 1.0, "shot": 1.0}
            before = ClipRenderer(plan_from_conditioning({**slept.conditioning, **plain}))
            after = ClipRenderer(plan_from_conditioning({**woke.conditioning, **plain}))
            last = settings["frames"] - 1
            lay_rows, lay_cols = _figure(before, last)
            rows, cols = _figure(after, 0)
            height, width = settings["height"], settings["width"]
            where = (settings, seed, camera, then)
            assert rows.max() < after.ground_y - 0.08 * height, (*where, "starts up on the bed, not on the floor")
            assert abs(int(rows.max()) - int(lay_rows.max())) <= 0.04 * height, where
            assert abs(float(np.median(cols)) - float(np.median(lay_cols))) <= 0.05 * width, (*where, "same place")
            end_rows, _ = _figure(after, last)
            assert end_rows.max() >= after.ground_y - 0.04 * height, (*where, "got up and stands on the floor")
