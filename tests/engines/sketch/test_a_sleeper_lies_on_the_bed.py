"""Someone who sleeps in the bedroom lies on the bed, not on the floor beside it.

The sleeper used to lie on the floor in the middle of the room while the bedroom's bed
stood empty at the side. Measured on the pictures: the figure is what a frame adds to the
scenery behind it, the bed is the blanket's blue in that scenery.
"""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, frame_times, plan_from_conditioning

from ..sketch_helpers import predict

SIZES = ({"height": 180, "width": 320, "frames": 5, "fps": 8}, {"height": 180, "width": 180, "frames": 5, "fps": 8})


@pytest.mark.parametrize("camera", ["static", "pan"])
def test_the_sleeper_lies_on_the_bed(engine: SketchEngine, camera: str) -> None:
    for settings in SIZES:
        for seed in range(3):
            cond = dict(predict(engine, f"Sosuke sleeps in the bedroom. Camera: {camera}.", seed=seed,
                                settings=settings).conditioning)
            cond.update(framing=1.0, props=[])  # the whole room in the shot, nothing else on the floor
            renderer = ClipRenderer(plan_from_conditioning(cond))
            height = settings["height"]
            for index in (0, settings["frames"] - 1):
                t = frame_times(settings["frames"])[index]
                scenery = np.asarray(renderer.background(renderer.camera_at(t))).astype(int)
                figure = np.abs(renderer.frame(index).astype(int) - scenery).sum(axis=2) > 90
                rows, cols = np.nonzero(figure)
                low, high = _bed_columns(scenery)
                floor = renderer.ground_y
                assert rows.size, (settings, seed, index)
                assert rows.max() < floor - 0.08 * height, (settings, seed, index, "lies above the floor")
                middle = float(np.median(cols))
                assert low <= middle <= high, (settings, seed, index, middle, low, high)


def _bed_columns(scenery: np.ndarray) -> tuple[int, int]:
    """The widest run of columns where the lower half of the room shows the bed: its blue blanket
    or its white sheet and pillow (the window's sky is in the upper half)."""
    lower = scenery[scenery.shape[0] // 2:]
    red, green, blue = lower[..., 0], lower[..., 1], lower[..., 2]
    bed = ((blue > red + 50) & (green > red + 10)) | ((red > 225) & (green > 225) & (blue > 230))
    present = bed.any(axis=0)
    best, start = (0, -1), None
    for col, here in enumerate([*present, False]):
        if here and start is None:
            start = col
        elif not here and start is not None:
            if col - 1 - start > best[1] - best[0]:
                best = (start, col - 1)
            start = None
    assert best[1] > best[0], "the bedroom shows its bed"
    return best
