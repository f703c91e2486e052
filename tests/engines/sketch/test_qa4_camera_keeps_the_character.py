"""Camera moves, measured on rendered frames.

- A pan slid the camera a third of the frame while a flyer or runner went on at full speed:
  "Qiqi flies on a broomstick in the sky, camera pan" showed her leaving the frame halfway
  through and then only empty sky.
- A closer shot (medium or close framing) was re-centred on the character every frame, so
  with a still camera the room scrolled along with a walker and then stopped dead where the
  shot met the edge of the scene: a whip and a jolt in every walk indoors.
"""

from __future__ import annotations

import numpy as np

from studio.engines.sketch import SketchEngine

from ..sketch_helpers import predict, render

FULL = {"height": 240, "width": 360, "frames": 17, "fps": 8}


def _dark_pixels(frame: np.ndarray) -> int:
    """Pixels as dark as Qiqi's hair and dress; a day sky has none."""
    luminance = frame.astype(np.float32) @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    return int((luminance < 70).sum())


def test_a_pan_keeps_a_flyer_in_the_frame(engine: SketchEngine) -> None:
    text = "Character: Qiqi; Motion: fly on broomstick; Background: day sky; Camera: pan."
    for seed in (0, 3):
        _, clip = render(engine, text, seed=seed, settings=FULL)
        first = _dark_pixels(clip.frames[0])
        assert first > 200, "Qiqi is drawn in the first frame"
        counts = [_dark_pixels(f) for f in clip.frames]
        assert min(counts) > 0.6 * first, (seed, counts)


def _horizontal_shift(a: np.ndarray, b: np.ndarray, rows: int, reach: int = 40) -> int:
    """How many pixels the top ``rows`` of the picture moved sideways from ``a`` to ``b``."""
    top_a, top_b = a[:rows].astype(np.int16), b[:rows].astype(np.int16)
    width = a.shape[1]
    best, best_dx = float("inf"), 0
    for dx in range(-reach, reach + 1):
        if dx >= 0:
            diff = np.abs(top_a[:, dx:] - top_b[:, :width - dx]).mean()
        else:
            diff = np.abs(top_a[:, :dx] - top_b[:, -dx:]).mean()
        if diff < best:
            best, best_dx = diff, dx
    return best_dx


def test_a_closer_still_shot_glides_instead_of_jolting(engine: SketchEngine) -> None:
    text = "Character: Taro; Motion: walk; Background: day classroom."
    seeds = [s for s in range(12)
             if predict(engine, text, seed=s, settings=FULL).conditioning["framing"] > 1.0][:2]
    assert seeds, "some seeds frame the walk closer"
    for seed in seeds:
        pred, clip = render(engine, text, seed=seed, settings=FULL)
        assert pred.conditioning["camera"] == "static" and abs(pred.conditioning["travel"]) > 0.2
        shifts = [_horizontal_shift(clip.frames[i], clip.frames[i + 1], rows=30)
                  for i in range(len(clip.frames) - 1)]
        # The wall moves at an even pace (or not at all), never fast and then stopped.
        assert max(shifts) - min(shifts) <= 2, (seed, shifts)
