"""An instrument said not to be played in Korean ("기타를 치지 않는다", "기타를 안 친다") is a motion
not done, shown as the idle, as "does not play the guitar" and ギターを弾かない are: it was drawn
as singing, the stand-in of an instrument played (치다 and 켜다 were read as nothing)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_turn

NAMES = ["Yuzu"]


@pytest.mark.parametrize("text", [
    "Yuzu does not play the guitar", "Yuzuはギターを弾かない", "Yuzu는 기타를 치지 않는다", "Yuzu는 기타를 안 친다",
    "Yuzu는 기타를 못 친다", "Yuzu는 바이올린을 켜지 않는다",
])
def test_an_instrument_not_played_is_a_motion_not_done(text: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == "idle"
    assert not any("is not drawn: shown as 'sing'" in warning for warning in reading.warnings)
    assert any("is a motion not done" in warning for warning in reading.warnings)


@pytest.mark.parametrize(("text", "instrument"), [
    ("Yuzu는 기타를 친다", "guitar"), ("Yuzu가 바이올린을 켠다", "violin"), ("Yuzu는 플루트를 분다", "flute"),
])
def test_an_instrument_played_is_still_sung(text: str, instrument: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == "sing"
    assert f"'{instrument}' is not drawn: shown as 'sing'" in reading.warnings


def test_chida_without_an_instrument_plays_nothing() -> None:
    # "공을 친다" hits a ball: 치다 is read as "play" only after an instrument
    assert read_turn(parse_instruction("Yuzu는 공을 친다"), [], NAMES).motion.name != "sing"
