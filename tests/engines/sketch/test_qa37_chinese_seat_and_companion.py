"""What the sketch draws beside the motion (the seat it sits on, a companion named in the
turn) is read from a Chinese turn as from a Japanese or English one."""

from __future__ import annotations

from studio.engines.sketch import SketchEngine

from ..sketch_helpers import predict


def test_a_bench_in_chinese_is_sat_on() -> None:
    engine = SketchEngine()
    engine.load()
    for text in ("角色：小明；动作：坐在长椅上；背景：公园", "角色：小明；動作：坐在長椅上；背景：公園",
                 "Character: 小明; Motion: sit on a bench; Background: park"):
        conditioning = predict(engine, text).conditioning
        assert (conditioning["motion"], conditioning["seat"]) == ("sit", "bench"), (text, conditioning["seat"])


def test_the_sea_in_a_chinese_turn_is_no_companion() -> None:
    engine = SketchEngine()
    engine.load()
    conditioning = predict(engine, "小明在海里游泳").conditioning
    assert conditioning["motion"] == "swim" and conditioning["companion"] == ""
