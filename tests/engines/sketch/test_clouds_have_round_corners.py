"""Clouds are round all over: their flat base had square corners, a box under the puffs."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from studio.engines.sketch.camera import CameraFrame
from studio.engines.sketch.render import compose_background
from studio.engines.sketch.scenery import _cloud, build_scene


def _cloud_mask(radius: float) -> np.ndarray:
    size = round(8 * radius)
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    _cloud(ImageDraw.Draw(img, "RGBA"), size / 2, size / 2, radius, (255, 255, 255, 255))
    return np.asarray(img)[:, :, 3] > 0


def _shift(mask: np.ndarray, dy: int, dx: int) -> np.ndarray:
    out = np.zeros_like(mask)
    h, w = mask.shape
    out[max(0, dy):h + min(0, dy), max(0, dx):w + min(0, dx)] = \
        mask[max(0, -dy):h + min(0, -dy), max(0, -dx):w + min(0, -dx)]
    return out


def _opened(mask: np.ndarray, k: int) -> np.ndarray:
    """The mask opened with a disk of radius ``k``: what is left is what a round brush of that
    size can paint inside the shape, so sharp corners are cut off and round ends stay."""
    offsets = [(dy, dx) for dy in range(-k, k + 1) for dx in range(-k, k + 1) if dy * dy + dx * dx <= k * k]
    eroded = np.ones_like(mask)
    for dy, dx in offsets:
        eroded &= _shift(mask, dy, dx)
    opened = np.zeros_like(mask)
    for dy, dx in offsets:
        opened |= _shift(eroded, dy, dx)
    return opened


@pytest.mark.parametrize("radius", [60.0, 90.0])
def test_a_cloud_has_no_sharp_corners(radius: float) -> None:
    mask = _cloud_mask(radius)
    cut = mask & ~_opened(mask, round(0.2 * radius))
    # A round brush a fifth of the cloud's size paints all of it but a few stray pixels of
    # its (unsmoothed) outline; a square corner leaves a clump that grows with the cloud.
    assert cut.sum() <= 0.25 * radius, (radius, int(cut.sum()))


def test_clouds_in_a_scene_are_drawn() -> None:
    """The round clouds are still there in a built scene (white on the blue day sky)."""
    scene = build_scene("park", "day", 240, 360)
    sky = np.asarray(compose_background(scene, CameraFrame(0.0, (0.0, 0.0, 0.0, 0.0)), 360, False))[:80]
    assert (sky.min(axis=2) > 245).sum() > 200
