"""Only the cast members named as away are passed over when looking for the friend.

"Qiqi waits for Taro with Yuzu" drew Qiqi alone: the first name found was Taro, who is away
("for Taro"), and the search stopped there, so Yuzu was left out too. Measured on rendered
frames: the friend's pixels are those that change when the clip is drawn without the friend.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning

from ..sketch_helpers import predict

SIZE = {"height": 120, "width": 180, "frames": 3, "fps": 8}


def _friend_pixels(engine: SketchEngine, text: str) -> int:
    plan = plan_from_conditioning(predict(engine, text, settings=SIZE).conditioning)
    drawn = ClipRenderer(plan).frame(2).astype(np.int16)
    alone = ClipRenderer(replace(plan, companion_look=None)).frame(2).astype(np.int16)
    return int((np.abs(drawn - alone).sum(axis=2) > 30).sum())


@pytest.mark.parametrize("text", [
    "Qiqi waits for Taro with Yuzu in the park",
    "Qiqi talks about Taro with Yuzu in the park",
    "Qiqi waves at Yuzu without Taro in the park",
])
def test_the_friend_who_is_there_is_drawn(engine: SketchEngine, text: str) -> None:
    pred = predict(engine, text, settings=SIZE)
    assert pred.conditioning["companion"] == "Yuzu", text
    assert not any("Taro" in w for w in pred.warnings), pred.warnings
    assert _friend_pixels(engine, text) > 200, text


def test_a_turn_naming_only_someone_away_stays_alone(engine: SketchEngine) -> None:
    pred = predict(engine, "Qiqi waits for Taro in the park", settings=SIZE)
    assert pred.conditioning["companion"] == ""
    assert plan_from_conditioning(pred.conditioning).companion_look is None
