"""Picking up the scenery where the previous clip left it, when a turn stays in the same place.

A take's seed picks the shot size and a few ground props (:mod:`variation`), and every clip
started its scenery scrolled back to the same spot. Two turns in one place then cut from one
picture of it to another: the ground props jumped, the houses jumped back, the shot changed
size. A clip records where it leaves all of that (``end_scroll``, ``end_props``, ``end_shot``)
and the next clip in the same place starts from there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from studio.engines.sketch.camera import CameraFrame
from studio.engines.sketch.variation import MAX_SHOT, TakeVariation, variation_from

PROP_REACH = 1.0
"""Props further than this from the centre of the frame (frame widths) are left behind."""


def end_scroll(scroll: tuple[float, float, float], end_cam: CameraFrame) -> list[float]:
    """Where the far, mid and near layers are at the end of a clip that started at ``scroll``."""
    return [round((start + shift) % 1.0, 6) for start, shift in zip(scroll, end_cam.layer_shifts[1:], strict=True)]


def end_props(variation: TakeVariation, end_cam: CameraFrame) -> list[dict[str, Any]]:
    """The clip's ground props as the next clip sees them (measured from its first frame)."""
    near = end_cam.layer_shifts[3]
    return [replace(p, x=round(p.x - near, 4)).to_params() for p in variation.props if abs(p.x - near) <= PROP_REACH]


def end_shot(variation: TakeVariation, end_cam: CameraFrame) -> float:
    """The shot size (as a zoom factor) the clip ends on."""
    return round(min(MAX_SHOT, variation.framing * end_cam.zoom), 4)


def continue_variation(variation: TakeVariation, prev: Mapping[str, Any], keep_framing: bool
                       ) -> tuple[TakeVariation, tuple[float, float, float]]:
    """This take's variation with the previous clip's props (and its shot size unless the
    instruction asks for a camera), and where the scenery starts.

    A previous take made before clips recorded these keeps the seed's own choices.
    """
    if "end_props" not in prev:
        return variation, (0.0, 0.0, 0.0)
    carried = variation_from({"props": prev.get("end_props")}).props
    out = replace(variation, props=carried)
    if keep_framing:
        try:
            shot = float(prev.get("end_shot", variation.framing))
        except (TypeError, ValueError):
            shot = variation.framing
        if math.isfinite(shot):
            out = replace(out, framing=min(MAX_SHOT, max(1.0, round(shot, 4))))
    raw = prev.get("end_scroll")
    scroll = (0.0, 0.0, 0.0)
    if isinstance(raw, list | tuple) and len(raw) == 3:
        try:
            values = tuple(float(v) for v in raw)
        except (TypeError, ValueError):
            values = ()
        if len(values) == 3 and all(math.isfinite(v) for v in values):
            scroll = (values[0] % 1.0, values[1] % 1.0, values[2] % 1.0)
    return out, scroll
