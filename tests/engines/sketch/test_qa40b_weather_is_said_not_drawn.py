"""The sketch world draws no weather: a turn that names rain, snow, fog or a storm says so in a
warning rather than drop it without a word, and weather written as the subject of a verb is no
motion of the character's ("snow falls" was a fall, "a thunderstorm hits the town" a punch,
"打雪仗", a snowball fight, a punch)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.scenery import __file__ as scenery_file
from studio.engines.sketch.understanding import read_turn

from ..sketch_helpers import SMALL, predict


def not_drawn(weather: str) -> str:
    return f"'{weather}' is not drawn: this world has no weather"


@pytest.mark.parametrize(("text", "motion", "weather"), [
    ("Qiqi walks in the rain", "walk", "rain"),
    ("Qiqi walks down a rainy street", "walk", "rain"),
    ("Qiqi walks through the fog at dawn", "walk", "fog"),
    ("It is raining. Qiqi walks to school", "walk", "rain"),
    ("Character: Qiqi; Motion: walk; Background: rainy street", "walk", "rain"),
    ("雨の中、キキは傘をさして歩く", "walk", "rain"),
    ("눈이 오는 날 Qiqi는 걷는다", "walk", "snow"),
])
def test_weather_is_named_in_a_warning(text: str, motion: str, weather: str) -> None:
    take = predict(SketchEngine(), text, seed=5, settings=SMALL)
    assert take.conditioning["motion"] == motion
    assert not_drawn(weather) in take.warnings


@pytest.mark.parametrize(("text", "weather"), [
    ("Snow falls as Qiqi builds a snowman", "snow"),
    ("A thunderstorm hits the town at night", "storm"),
    ("Lightning strikes the tower", "storm"),
    ("The rain stops and Qiqi runs home", "rain"),
])
def test_weather_as_a_subject_is_no_motion_of_the_character(text: str, weather: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.motion.name not in ("fall", "punch")
    assert not_drawn(weather) in reading.warnings


def test_the_rain_stopping_leaves_the_run() -> None:
    assert read_turn(parse_instruction("The rain stops and Qiqi runs home")).motion.name == "run"


@pytest.mark.parametrize("text", ["琪琪在雪地里打雪仗", "雪の中、キキは雪合戦をする"])
def test_a_snowball_fight_throws(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.motion.name == "throw"
    assert not_drawn("snow") in reading.warnings


@pytest.mark.parametrize("text", [
    "Qiqi walks in the park", "Qiqi falls down the stairs", "Qiqi hits the ball", "It doesn't rain; Qiqi runs",
    "Qiqi says \"it will rain\"", "Qiqi walks on a sunny day",
])
def test_no_weather_no_warning(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert not any("weather" in w for w in reading.warnings), reading.warnings


def test_the_scenery_has_no_weather_to_draw() -> None:
    """The warning holds while the scenery draws no weather: a renderer that learns rain should draw it."""
    with open(scenery_file, encoding="utf-8") as source:
        code = source.read().lower()
    assert not any(word in code for word in ("rain", "snow", "fog", "storm"))
