"""The far row of houses repeats without a house cut at the seam.

The scenery layers repeat every frame width as the camera scrolls. The row of houses was laid
out from the left edge until it passed the right one, so its last house, repeated one width
further left, was drawn over the first one: a house cut in two went by at every repeat.
Measured on the park's far layer, where the row stands alone: along a line just above the
houses' feet, every stretch of wall between two outlines is a whole house.
"""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines.sketch.scenery import build_scene

SIZES = ((240, 360), (180, 320), (480, 720), (360, 640), (640, 360), (200, 200), (270, 480), (300, 500))
HOUSE_SCALE = 0.6
"""The size of the park's far houses (``_paint_park``); the narrowest is 55 units wide."""


def _walls(row: np.ndarray) -> list[int]:
    """Lengths of the runs of wall (drawn, not an outline) along ``row`` (RGBA), round the repeat."""
    drawn = row[:, 3] > 200
    dark = row[:, :3].astype(int).sum(axis=1) < 450
    wall = drawn & ~dark
    start = int(np.argmin(wall))  # begin at a pixel that is not wall, so that no run is split in two
    ring = np.roll(wall, -start)
    runs, length = [], 0
    for here in [*ring, False]:
        if here:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs


@pytest.mark.parametrize(("height", "width"), SIZES)
def test_every_far_house_is_whole(height: int, width: int) -> None:
    scene = build_scene("park", "day", height, width)
    far = scene.bands[0]
    assert far.image is not None
    u = height / 480
    base = round(height * 0.62) + 10 * u  # the houses' feet (the horizon is at 0.62 of the height)
    y = round(base - 4 * u) - far.top
    row = np.asarray(far.image.convert("RGBA"))[y, :width]
    walls = _walls(row)
    assert len(walls) >= 5, "the houses are on this line"
    narrowest = 0.7 * 55 * u * HOUSE_SCALE
    assert min(walls) >= narrowest, (height, width, sorted(walls)[:3], round(narrowest, 1))
