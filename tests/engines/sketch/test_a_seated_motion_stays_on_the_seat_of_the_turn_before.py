"""A motion done seated stays on the seat the previous turn in the same place ended on.

"Aoi sits on a chair in the classroom", then "Aoi writes a letter in the classroom": Aoi stood up
at once, because only a line naming a seat again kept it. A motion that can be done seated now
keeps the seat of the turn before (same place, same time of day); a motion done standing gets up
from it as its pose blends in over the first frames. Measured on the rendered clip: the height of
the hips above the floor (figure units) in its first and last frames, and the seat's pixels.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import pytest

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.poses import SEAT_TOP
from studio.engines.sketch.render import ClipRenderer, frame_times, plan_from_conditioning
from studio.engines.sketch.skeleton import HIP_HEIGHT

from .seat_helpers import LAST, play_turns, seat_mask

STANDING_HIPS = 0.25
"""Hips higher than this (figure units) are standing: sitting on a seat puts them at :data:`SEAT_TOP`."""


def _hips(cond: dict[str, Any]) -> list[float]:
    """How high the hips are above the floor (figure units) in each frame of the clip."""
    renderer = ClipRenderer(plan_from_conditioning({**cond, "framing": 1.0, "shot": 1.0, "props": []}))
    out = []
    for index, t in enumerate(frame_times(renderer.plan.frames)):
        pose = renderer.placement(index)[2]
        out.append((renderer.ground_y - renderer.surface_at(t)) / renderer.scale + HIP_HEIGHT + pose.y)
    return out


@pytest.mark.parametrize("texts", [
    ["Aoi sits on a chair in the classroom", "Aoi writes a letter in the classroom"],
    ["Aoi sits on a chair in the classroom", "Aoi eats lunch in the classroom"],
    ["Qiqi eats lunch on a bench in the park", "Qiqi reads a book in the park"],
    ["Qiqi sits on a bench in the park", "Qiqi waves in the park", "Qiqi laughs in the park"],
])
def test_a_seated_motion_stays_on_the_seat(engine: SketchEngine, texts: list[str]) -> None:
    preds = play_turns(engine, texts)
    seat = preds[0].conditioning["seat"]
    cond = dict(preds[-1].conditioning)
    assert cond["seat"] == seat, texts
    hips = _hips(cond)
    assert abs(hips[0] - SEAT_TOP) < 0.02 and abs(hips[-1] - SEAT_TOP) < 0.02, (texts, hips)
    # The seat is drawn under the character at the end of the clip.
    cols = np.nonzero(seat_mask({**cond, "framing": 1.0, "props": []}))[1]
    x = ClipRenderer(plan_from_conditioning({**cond, "framing": 1.0, "shot": 1.0, "props": []})).placement(LAST)[0]
    assert cols.size > 100 and cols.min() < x < cols.max(), texts


@pytest.mark.parametrize("texts", [
    ["Aoi sits on a chair in the classroom", "Aoi walks in the classroom"],
    ["Qiqi eats lunch on a bench in the park", "Qiqi dances in the park"],
    ["Aoi sits on a chair in the classroom", "Aoi writes a letter in the classroom", "Aoi walks in the classroom"],
])
def test_a_standing_motion_gets_up_from_the_seat(engine: SketchEngine, texts: list[str]) -> None:
    preds = play_turns(engine, texts)
    cond = dict(preds[-1].conditioning)
    assert cond["seat"] == "" and cond["seats"], (texts, "the seat stays where it stands")
    hips = _hips(cond)
    assert abs(hips[0] - SEAT_TOP) < 0.02, (texts, "starts on the seat", hips)
    assert min(hips[LAST // 2:]) > STANDING_HIPS, (texts, "stands by the middle of the clip", hips)
    # Getting up, not jumping up: the hips rise over several frames.
    assert max(b - a for a, b in pairwise(hips)) < 0.1, (texts, hips)


@pytest.mark.parametrize("later", [
    "Aoi sits on the floor in the classroom",
    "Aoi stands and writes a letter in the classroom",
    "Aoi gets up and waves in the classroom",
    "Aoi writes a letter in the classroom at night",  # another time of day: a new picture of the place
    "Aoi writes a letter in the park",
])
def test_the_seat_is_left_when_the_turn_says_so(engine: SketchEngine, later: str) -> None:
    preds = play_turns(engine, ["Aoi sits on a chair in the classroom", later])
    assert preds[1].conditioning["seat"] == "", later
