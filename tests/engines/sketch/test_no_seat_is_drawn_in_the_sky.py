"""A seat named in the sky is not drawn: there is nothing to stand it on.

"Qiqi sits on a bench in the sky" drew a bench floating on the clouds. The sitter now sits on
the clouds. Measured on the rendered clip: the
bench's wood colours are nowhere in it (they are in the same instruction in the park).
"""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.seats import _lit

from ..sketch_helpers import render

SIZE = {"height": 240, "width": 360, "frames": 5, "fps": 8}
WOOD = (176, 116, 72)
SOFA = (118, 142, 196)


def _has(frames: np.ndarray, colour: tuple[int, int, int]) -> int:
    """How many pixels of the clip are ``colour`` (within a few levels)."""
    return int((np.abs(frames.astype(np.int16) - np.array(colour)).max(axis=3) <= 3).sum())


@pytest.mark.parametrize(("text", "colour"), [
    ("Qiqi sits on a bench in {place}", WOOD),
    ("Qiqi eats lunch with Yuzu on a sofa in {place}", SOFA),
])
def test_a_seat_is_drawn_on_the_ground_but_not_in_the_sky(engine: SketchEngine, text: str,
                                                          colour: tuple[int, int, int]) -> None:
    park, park_clip = render(engine, text.format(place="the park"), settings=SIZE)
    assert park.conditioning["seat"], "a seat in the park"
    assert _has(park_clip.frames, _lit(colour, (1.0, 1.0, 1.0))) > 50, "the park's seat is drawn"
    sky, sky_clip = render(engine, text.format(place="the sky"), settings=SIZE)
    assert sky.conditioning["scene"] == "sky"
    assert sky.conditioning["seat"] == ""
    assert _has(sky_clip.frames, colour) == 0, "no seat floats in the sky"
