"""A Japanese motion noun done with する is not done when する is negated (ジョギングしない,
ジャンプしなかった, 散歩をしません): it was drawn. 笑顔で (with a smile) is how a motion is done, not
a second motion. Sitting on a seat and doing something done seated, in Japanese, Chinese and
Korean (ベンチに座って本を読む, 坐在长椅上看书, 벤치에 앉아서 책을 읽는다) or in English with an
"-ing" ("sits on a bench reading"), is that motion on the seat, as "sits on a bench and reads"
is: it was a sit, the read left out."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_turn

from ..sketch_helpers import SMALL, predict

NAMES = ["Qiqi", "Yuzu"]


@pytest.mark.parametrize(("text", "said"), [
    ("Qiqiは公園でジョギングしない", "'not jog' is a motion not done, shown as 'idle'"),
    ("Qiqiはジャンプしなかった", "'not jump' is a motion not done, shown as 'idle'"),
    ("Qiqiは散歩をしません", "'not take walk' is a motion not done, shown as 'idle'"),
])
def test_a_suru_noun_negated_is_not_done(text: str, said: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == "idle"
    assert said in reading.warnings


@pytest.mark.parametrize(("text", "motion"), [("Qiqiはジャンプする", "jump"), ("Qiqiは散歩をした", "walk")])
def test_a_suru_noun_done_is_drawn(text: str, motion: str) -> None:
    assert read_turn(parse_instruction(text), [], NAMES).motion.name == motion


def test_a_smile_is_how_the_wave_is_done() -> None:
    reading = read_turn(parse_instruction("Qiqiは笑顔で手を振った"), [], NAMES)
    assert (reading.motion.name, reading.warnings) == ("wave", [])


@pytest.mark.parametrize("text", [
    "Qiqiはベンチに座って本を読む", "琪琪坐在长椅上看书", "Qiqi는 벤치에 앉아서 책을 읽는다",
    "Qiqi sits on a bench reading a book",
])
def test_a_seated_motion_is_done_on_the_seat(text: str) -> None:
    take = predict(SketchEngine(), text, settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["seat"]) == ("read", "bench")
    assert not any("left out" in w for w in take.warnings)


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi sits on the grass and reads", "sit"), ("Qiqi sits on a bench and sleeps", "sit"),
    ("Qiqi sits on a chair, then runs", "sit"), ("Qiqiはベンチに座る", "sit"),
])
def test_other_sittings_stay(text: str, motion: str) -> None:
    assert read_turn(parse_instruction(text), [], NAMES).motion.name == motion
