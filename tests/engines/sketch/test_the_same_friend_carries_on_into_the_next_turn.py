"""The same friend named in the next turn in the same place starts where they were.

"Qiqi sits on the bench with Yuzu", then "Qiqi waves at Yuzu": Yuzu sat on the bench at the end
of the first clip and stood at another place in the first frame of the second. The friend now
starts from their end position, facing and pose, and blends into their new role over the first
third of the clip, as the character does. Measured on rendered frames: the friend's pixels are
those that change when the frame is drawn without the friend (the seats left out of both).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from studio.engines.base import Prediction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipPlan, ClipRenderer, plan_from_conditioning

from .seat_helpers import LAST, play_turns


def _plan(pred: Prediction) -> ClipPlan:
    """The clip's plan with the whole stage in the shot, without ground props or seats."""
    plan = plan_from_conditioning({**pred.conditioning, "framing": 1.0, "shot": 1.0, "props": []})
    return replace(plan, seat="", seats=())


def _friend_mask(plan: ClipPlan, index: int) -> np.ndarray:
    drawn = ClipRenderer(plan).frame(index).astype(np.int16)
    alone = ClipRenderer(replace(plan, companion_look=None)).frame(index).astype(np.int16)
    return np.asarray(np.abs(drawn - alone).sum(axis=2) > 30)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max(1, (a | b).sum()))


@pytest.mark.parametrize("texts", [
    ["Qiqi sits on the bench with Yuzu in the park", "Qiqi waves at Yuzu in the park"],
    ["Qiqi sits on a chair with Yuzu in the cafe", "Qiqi walks with Yuzu in the cafe"],
    ["Qiqi walks with Yuzu in the park", "Qiqi dances with Yuzu in the park"],
    ["Aoi hugs Taro on the beach", "Aoi eats lunch with Taro on the beach"],
])
def test_the_friend_does_not_jump_at_the_cut(engine: SketchEngine, texts: list[str]) -> None:
    first, second = (_plan(p) for p in play_turns(engine, texts))
    end, start = _friend_mask(first, LAST), _friend_mask(second, 0)
    assert end.sum() > 300 and start.sum() > 300
    assert _overlap(end, start) > 0.85, (texts, _overlap(end, start))


def test_the_friend_ends_in_the_new_role(engine: SketchEngine) -> None:
    """After the blend the friend is where, and as, a first turn there would draw them."""
    preds = play_turns(engine, ["Qiqi sits on the bench with Yuzu in the park", "Qiqi waves at Yuzu in the park"])
    plan = _plan(preds[1])
    assert plan.friend_start is not None
    fresh = replace(plan, friend_start=None)
    assert _overlap(_friend_mask(plan, 0), _friend_mask(fresh, 0)) < 0.8, "it starts from the bench"
    assert np.array_equal(_friend_mask(plan, LAST), _friend_mask(fresh, LAST))


@pytest.mark.parametrize("later", [
    "Qiqi waves at Taro in the park",  # someone else
    "Qiqi waves at Yuzu on the beach",  # another place
    "Qiqi waves in the park",  # nobody named: nobody drawn
])
def test_only_the_same_friend_in_the_same_place_carries_on(engine: SketchEngine, later: str) -> None:
    preds = play_turns(engine, ["Qiqi sits on the bench with Yuzu in the park", later])
    assert "friend_start" not in preds[1].conditioning, later
    assert _plan(preds[1]).friend_start is None
