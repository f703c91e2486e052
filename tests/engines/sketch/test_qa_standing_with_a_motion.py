"""Standing, waiting or staying named beside another motion is how that motion is done, not
the motion drawn: "Qiqi stands on a chair and waves" waves (it stood idle, the wave left out).
A stop is still a stop ("stops and waves"), and standing alone is still idle."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_instruction

from ..sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi stands on a chair and waves", "wave"),
    ("Qiqi stands up and waves", "wave"),
    ("Qiqi stands still and sings", "sing"),
    ("Qiqi stays in the park and dances", "dance"),
    ("Qiqi waits at the station and reads a book", "read"),
    ("Qiqi stands still, then runs", "run"),
    ("Character: Qiqi; Motion: stand up and wave; Background: town", "wave"),
])
def test_the_other_motion_is_drawn_and_nothing_is_said_left_out(text: str, motion: str) -> None:
    reading = read(text)
    assert reading.motion.name == motion
    assert reading.warnings == []


@pytest.mark.parametrize("text", ["Qiqi stands up", "Qiqi waits at the station", "Qiqi stays home"])
def test_standing_alone_is_idle(text: str) -> None:
    assert read(text).motion.name == "idle"


def test_a_stop_stays_the_motion_drawn() -> None:
    reading = read("Qiqi stops and waves")
    assert reading.motion.name == "idle"
    assert reading.warnings == ["several motions named, shown as 'idle'; left out 'wave' (a clip shows one motion)"]


def test_a_motion_not_done_beside_standing_still_is_idle() -> None:
    reading = read("Qiqi stands there and doesn't wave")
    assert reading.motion.name == "idle"


def test_standing_on_a_chair_waves_without_a_seat() -> None:
    prediction = predict(SketchEngine(), "Qiqi stands on a chair in the cafe and waves", settings=SMALL)
    assert prediction.conditioning["motion"] == "wave"
    assert not prediction.conditioning.get("seat")
    assert prediction.warnings == ()
