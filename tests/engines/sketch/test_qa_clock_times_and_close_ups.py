"""A time on the clock sets the light ("Qiqi runs at 11pm" was drawn by day), so does
"tonight", and "close-up of Qiqi crying" is a close shot (it was a still, wide one)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, clock_time, light_at, read_instruction
from studio.engines.sketch.vocabulary import CameraMode

from ..sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize(("text", "time"), [
    ("Qiqi runs at 11pm", "night"),
    ("Qiqi runs at 11 p.m. in the park", "night"),
    ("Qiqi stretches at 6:30 AM", "sunset"),
    ("Qiqi eats lunch at 12pm", "day"),
    ("Qiqi sleeps at 12am", "night"),
    ("Qiqi reads at 19:00", "sunset"),
    ("Qiqi walks 2 km at 10am", "day"),
    ("Qiqi runs tonight", "night"),
    ("Time: 11pm; Qiqi walks", "night"),
])
def test_a_clock_time_sets_the_light(text: str, time: str) -> None:
    reading = read(text)
    assert reading.time == time
    assert reading.warnings == []


@pytest.mark.parametrize("text", ["Qiqi reads at 5:30", "Qiqi runs 3 laps", "Qiqi runs 100 meters", "Qiqi is 12"])
def test_numbers_that_are_no_clock_time_say_nothing(text: str) -> None:
    assert read(text).time == ""


def test_a_time_word_comes_before_a_clock_time() -> None:
    assert read("Qiqi runs at dawn, at 11pm she sleeps").time == "sunset"


def test_the_hours_of_the_day() -> None:
    assert [light_at(h) for h in range(24)] == ["night"] * 5 + ["sunset"] * 2 + ["day"] * 10 + ["sunset"] * 3 \
        + ["night"] * 4
    assert clock_time("at 7 am") == "day" and clock_time("23:59") == "night" and clock_time("24:00") == ""


def test_the_clip_is_drawn_at_night() -> None:
    prediction = predict(SketchEngine(), "Qiqi runs in the park at 11pm", settings=SMALL)
    assert prediction.conditioning["time_of_day"] == "night"


@pytest.mark.parametrize("text", ["close-up of Qiqi crying", "Qiqi cries, close\u2011up"])
def test_a_close_up_is_a_close_shot(text: str) -> None:
    assert read(text).camera == CameraMode.ZOOM


def test_close_alone_is_no_shot() -> None:
    assert read("Qiqi walks close to Yuzu").camera is None
