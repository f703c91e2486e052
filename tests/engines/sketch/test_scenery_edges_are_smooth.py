"""The outlines of the scenery (hills, roofs, trees, the road) are anti-aliased like the figures.

Pillow draws shapes with hard edges: every pixel of a scenery layer was either empty or fully
covered, so the hills and roofs had stepped edges next to the smoothly drawn figures. Along a
smooth edge, the pixels the edge passes through are partly covered.
"""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines.sketch.scenery import build_scene


def _edge_share(alpha: np.ndarray) -> float:
    """The share of the layer's edge pixels (drawn pixels next to empty ones) that are partly covered."""
    drawn = alpha > 0
    beside_empty = np.zeros_like(drawn)
    beside_empty[1:, :] |= ~drawn[:-1, :]
    beside_empty[:-1, :] |= ~drawn[1:, :]
    beside_empty[:, 1:] |= ~drawn[:, :-1]
    beside_empty[:, :-1] |= ~drawn[:, 1:]
    edge = drawn & beside_empty
    assert edge.sum() > 50, "the layer has shapes"
    return float(((alpha > 0) & (alpha < 250) & edge).sum() / edge.sum())


@pytest.mark.parametrize(("place", "layer"), [("countryside", 0), ("countryside", 1), ("town", 1), ("mountain", 0),
                                              ("park", 1), ("street", 1)])
@pytest.mark.parametrize(("height", "width"), [(240, 360), (480, 720)])
def test_the_edges_of_scenery_shapes_are_soft(place: str, layer: int, height: int, width: int) -> None:
    band = build_scene(place, "day", height, width).bands[layer]
    assert band.image is not None
    alpha = np.asarray(band.image.convert("RGBA"))[:, :width, 3]
    assert _edge_share(alpha) > 0.5, (place, layer)
