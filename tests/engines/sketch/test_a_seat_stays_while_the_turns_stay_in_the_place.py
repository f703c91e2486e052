"""A seat sat on stays where it stands for as long as the turns stay in that place.

The bench Qiqi sat on was drawn in the next turn only: two turns later, in the same park at the
same time of day, it was gone. It now carries on like the ground props, staying put in the world
as the camera moves (a walk followed by the camera leaves it behind), and is dropped when the
place or the time of day changes. Measured on rendered frames: the seat's pixels are those that
change when the same clip is drawn without the seats left standing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning

from .seat_helpers import LAST, SIZE, play_turns


def _seat_columns(cond: dict[str, Any], index: int, left: bool = True) -> np.ndarray:
    """The columns of frame ``index`` where a seat left by an earlier turn is drawn (``left``),
    or the seat the turn sits on."""
    cond = {**cond, "framing": 1.0, "shot": 1.0, "props": []}
    plan = plan_from_conditioning(cond)
    with_seats = ClipRenderer(plan).frame(index).astype(np.int16)
    without = ClipRenderer(replace(plan, seats=()) if left else replace(plan, seat="")).frame(index).astype(np.int16)
    return np.asarray(np.nonzero(np.abs(with_seats - without).sum(axis=2) > 30)[1])


def _span(cols: np.ndarray) -> tuple[int, int]:
    return int(cols.min()), int(cols.max())


def test_the_bench_stays_through_the_turns_in_the_park(engine: SketchEngine) -> None:
    texts = ["Qiqi sits on a bench in the park", "Qiqi dances in the park", "Qiqi jumps in the park",
             "Qiqi walks in the park", "Qiqi reads in the park"]
    preds = play_turns(engine, texts)
    where = _span(_seat_columns(dict(preds[0].conditioning), LAST, left=False))
    for text, pred in zip(texts[1:], preds[1:], strict=True):
        cond = dict(pred.conditioning)
        assert [s["seat"] for s in cond["seats"]] == ["bench"], text
        start = _seat_columns(cond, 0)
        assert start.size > 100, (text, "the bench is still there")
        # It stands where it stood at the end of the turn before: it doesn't jump.
        assert np.abs(np.subtract(_span(start), where)).max() <= 2, (text, _span(start), where)
        where = _span(_seat_columns(cond, LAST))
    walk = dict(preds[3].conditioning)
    assert walk["camera"] == "follow" and abs(walk["travel"]) > 0.05
    # The camera follows the walker: the bench stays put in the park, so it moves across the frame
    # (measured on the end the walker's legs don't hide).
    moved = np.subtract(_span(_seat_columns(walk, LAST)), _span(_seat_columns(walk, 0)))
    assert np.abs(moved - (-walk["travel"]) * SIZE["width"]).min() <= 1, moved


def test_the_bench_is_gone_in_another_place_or_at_another_time(engine: SketchEngine) -> None:
    for later in ("Qiqi laughs on the beach", "Qiqi laughs in the park at night"):
        preds = play_turns(engine, ["Qiqi sits on a bench in the park", "Qiqi dances in the park", later])
        assert preds[1].conditioning["seats"], "still there in the next turn"
        cond = dict(preds[2].conditioning)
        assert cond["seats"] == [], later
        assert plan_from_conditioning(cond).seats == (), later


def test_sitting_on_the_bench_again_draws_one_bench(engine: SketchEngine) -> None:
    preds = play_turns(engine, ["Qiqi sits on a bench in the park", "Qiqi waves in the park",
                           "Qiqi eats lunch on the bench in the park"])
    cond = dict(preds[2].conditioning)
    assert cond["seat"] == "bench" and cond["seats"] == [], "the bench she sits on is hers again, not a second one"
    assert [s["seat"] for s in cond["end_seats"]] == ["bench"]
