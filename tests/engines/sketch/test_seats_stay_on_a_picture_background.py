"""Seats stay from turn to turn on a user's picture background too.

On a location made from an image, the bench Qiqi and Yuzu sat on was gone in the next turn but
for a short bench under Qiqi alone, and gone entirely in the turn after. Seats now stay there as
in the built-in places. Measured on rendered frames: the seat's pixels are those that change
when the same frame is drawn without the seats left standing.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from studio.core.model import Location
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning

from .seat_helpers import LAST, play_turns


def _porch(tmp_path: Path) -> Location:
    picture = Image.new("RGB", (400, 300), (110, 160, 100))
    picture.paste((150, 120, 170), (0, 0, 400, 140))
    path = tmp_path / "porch.png"
    picture.save(path)
    return Location(id="porch", name="Porch", kind="image", params={"scene": "park"}, image_path=str(path))


def _seat_columns(cond: dict[str, Any], index: int, left: bool = True) -> np.ndarray:
    """The columns of frame ``index`` where the seats left standing are drawn (``left``), or the
    seat the turn sits on."""
    plan = plan_from_conditioning({**cond, "framing": 1.0, "shot": 1.0, "props": []})
    drawn = ClipRenderer(plan).frame(index).astype(np.int16)
    without = ClipRenderer(replace(plan, seats=()) if left else replace(plan, seat="")).frame(index)
    return np.asarray(np.nonzero(np.abs(drawn - without.astype(np.int16)).sum(axis=2) > 30)[1])


def test_the_bench_shared_with_a_friend_stays_whole(engine: SketchEngine, tmp_path: Path) -> None:
    texts = ["Qiqi sits on the bench with Yuzu at the Porch", "Qiqi dances at the Porch", "Qiqi jumps at the Porch"]
    preds = play_turns(engine, texts, [_porch(tmp_path)])
    assert preds[0].conditioning["image_path"], "drawn on the picture"
    sat = _seat_columns(dict(preds[0].conditioning), LAST, left=False)
    for text, pred in zip(texts[1:], preds[1:], strict=True):
        cond = dict(pred.conditioning)
        assert [s["seat"] for s in cond["seats"]] == ["bench"], text
        assert len(cond["seats"][0]["hips"]) == 2, (text, "the bench both sat on")
        cols = _seat_columns(cond, 0)
        # The whole bench, where it stood (the sitters hid a little of it in the first clip).
        assert cols.min() <= sat.min() + 2 and cols.max() >= sat.max() - 2, (text, cols.min(), cols.max())


def test_the_bench_is_gone_at_another_time(engine: SketchEngine, tmp_path: Path) -> None:
    preds = play_turns(engine, ["Qiqi sits on a bench at the Porch", "Qiqi dances at the Porch",
                                "Qiqi laughs at the Porch at night"], [_porch(tmp_path)])
    assert preds[1].conditioning["seats"]
    assert preds[2].conditioning["seats"] == []
