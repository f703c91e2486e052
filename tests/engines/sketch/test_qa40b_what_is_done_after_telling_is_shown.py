"""After telling or asking someone something, "then" turns to what the character does, and that
is what the turn shows, as docs/WORLD_RULES.md says: "Qiqi tells Yuzu to hurry, then sits on a
bench" sits (it was a talk, with 'sit' said to be left out). Telling alone is still a talk."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_instruction

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi tells Yuzu to hurry, then sits on a bench", "sit"),
    ("Qiqi tells Yuzu to hurry, then she sprints off", "run"),
    ("Qiqi asks Yuzu to wait and then dances", "dance"),
    ("Qiqi says that it is late, then runs home", "run"),
])
def test_the_motion_after_then_is_drawn(text: str, motion: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == motion
    assert reading.warnings == [
        f"several motions named, shown as '{motion}'; left out 'talk' (a clip shows one motion)"]


def test_the_sitter_sits_on_the_bench_named() -> None:
    take = predict(SketchEngine(), "Qiqi tells Yuzu to hurry, then sits on a bench", seed=3, settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["seat"]) == ("sit", "bench")


@pytest.mark.parametrize("text", [
    "Qiqi tells Yuzu to run", "Qiqi asks Yuzu to dance with her in the park", "Qiqi tells Yuzu to hurry",
])
def test_telling_alone_is_still_a_talk(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert (reading.motion.name, reading.warnings) == ("talk", [])


def test_x_then_y_without_telling_still_shows_x() -> None:
    reading = read_instruction(parse_instruction("Qiqi runs to the station, then waves"))
    assert reading.motion.name == "run"
