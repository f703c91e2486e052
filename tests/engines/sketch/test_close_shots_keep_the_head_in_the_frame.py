"""A zooming or close shot keeps the character's head in the frame when it goes up.

"Qiqi jumps in the park, camera zoom" and "... climbs ..., camera zoom" cut Qiqi's head and
bow off at the top of the frame as she rose: the shot kept the hip at a fixed height in it,
with less room above than her head needs once zoomed in. Measured on rendered frames: her
hair (the darkest thing in a day park or forest) never touches the top rows.
"""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines.sketch import SketchEngine

from ..sketch_helpers import render

SIZE = {"height": 240, "width": 360, "frames": 17, "fps": 8}


def _dark(frame: np.ndarray) -> np.ndarray:
    luminance = frame.astype(np.float32) @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    return luminance < 70


@pytest.mark.parametrize("text", ["Qiqi jumps in the park, camera zoom", "Qiqi climbs in the forest, camera zoom"])
def test_the_head_stays_below_the_top_of_the_frame(engine: SketchEngine, text: str) -> None:
    for seed in (4, 8, 9):
        pred, clip = render(engine, text, seed=seed, settings=SIZE)
        assert pred.conditioning["framing"] > 1.0, "a close shot that zooms in further"
        for index, frame in enumerate(clip.frames):
            dark = _dark(frame)
            assert dark.sum() > 300, "Qiqi is in the shot"
            assert not dark[:3].any(), (text, seed, index)
