"""Going home from a place (从公园回家, 公園から家に帰る, "goes home from the park") is drawn at
home, where the character goes, as 回家, 家に帰る and "goes home" are: it was drawn where the way
started (the park), the place the branch was already in."""

from __future__ import annotations

import pytest

from studio.engines.sketch import SketchEngine

from .sketch_helpers import as_turn, predict

FIRST = "Qiqi walks in the park"


@pytest.mark.parametrize("text", [
    "琪琪回家", "琪琪从公园回家", "琪琪从公园走回家", "Qiqiは公園から家に帰る", "Qiqi는 공원에서 집에 간다",
    "Qiqi goes home", "Qiqi goes home from the park", "Qiqi walks from the park home",
])
def test_going_home_is_drawn_at_home(engine: SketchEngine, text: str) -> None:
    first = predict(engine, FIRST)
    assert first.conditioning["location"] == "park"
    pred = predict(engine, text, history=(as_turn(first, FIRST),))
    assert pred.conditioning["location"] == predict(engine, "Qiqi goes home").conditioning["location"] == "bedroom"
    assert pred.conditioning["motion"] == "walk"


@pytest.mark.parametrize(("text", "place"), [
    ("琪琪从学校跑到公园", "park"), ("Qiqi runs from the park to school", "school"),
])
def test_a_way_to_another_place_is_still_drawn_there(engine: SketchEngine, text: str, place: str) -> None:
    assert predict(engine, text).conditioning["location"] == place
