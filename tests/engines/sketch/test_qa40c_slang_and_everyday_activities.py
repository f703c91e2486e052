"""Slang and everyday activities are read as what they show: "chillin" is chilling (the idle
stand-in, said), a picnic is eating, to yeet is to throw. Each was shown idle with "no motion
found"."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_instruction


@pytest.mark.parametrize("text", ["Qiqi chillin on the beach", "Qiqi chillin' on the beach", "Qiqi is chillin"])
def test_chillin_is_chill(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "idle"
    assert "'chill' unknown, shown as 'idle'" in reading.warnings
    assert not any(w.startswith("no motion found") for w in reading.warnings)


def test_a_dropped_g_of_another_stand_in_is_read() -> None:
    reading = read_instruction(parse_instruction("Qiqi surfin on the sea"))
    assert reading.motion.name == "swim"
    assert "'surf' unknown, shown as 'swim'" in reading.warnings


def test_a_short_word_ending_in_in_is_no_dropped_g() -> None:
    reading = read_instruction(parse_instruction("Qiqi skin"))  # "skin" is no skiing
    assert reading.motion.name == "idle"
    assert not any("'ski'" in w for w in reading.warnings)


@pytest.mark.parametrize("text", [
    "Qiqi, Yuzu, Taro and Aoi have a picnic",
    "Qiqi has a picnic in the park",
    "Qiqi picnics by the river",
    "Qiqi has lunch",
    "Qiqi has dinner at the cafe",
    "Qiqi has breakfast",
    "Qiqi grabs a bite",
])
def test_meals_and_picnics_are_eating(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "eat"
    assert reading.warnings == []


@pytest.mark.parametrize("text", ["Taro yeets the ball across the field", "Qiqi yeeted the ball"])
def test_a_yeet_is_a_throw(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "throw"
    assert reading.warnings == []
