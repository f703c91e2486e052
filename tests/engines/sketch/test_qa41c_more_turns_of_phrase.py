"""More of authors' phrasings read as meant: "tears up the letter" rips it (it cried; "tears up"
alone still cries), "falls in love" is happy (it fell), "runs her fingers through her hair" is no
run, "storms out" walks off, "grabs her broom and flies off" flies (the hold was drawn, the
flight left out), a meal named as a time ("after dinner", "calls her for dinner") is no meal
eaten, "strokes the cat" is no misspelt "strikes" (a punch), and 寝坊した (overslept) sleeps."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_instruction, read_turn


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi falls in love", "laugh"), ("Qiqi fell head over heels in love with Yuzu", "laugh"),
    ("Qiqi storms out of the room", "walk"), ("Qiqi grabs her broom and flies off", "fly on broomstick"),
    ("Qiqi takes a walk after dinner", "walk"), ("Qiqi's mom calls her for dinner", "talk"),
])
def test_read_as_meant_with_nothing_left_out(text: str, motion: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert (reading.motion.name, reading.warnings) == (motion, [])


@pytest.mark.parametrize("text", [
    "Qiqi tears up the letter", "Qiqi runs her fingers through her hair", "Qiqi strokes the cat",
])
def test_no_motion_of_ours_is_made_of_these(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "idle"
    assert not any("unknown, shown as" in w for w in reading.warnings)


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi tears up", "cry"), ("Qiqi tears up at the sad movie", "cry"), ("Qiqi falls in the river", "fall"),
    ("Qiqi runs through the park", "run"), ("Qiqi eats dinner", "eat"),
    ("Qiqi flies off on her broom", "fly on broomstick"),
])
def test_the_same_words_said_plainly_stay(text: str, motion: str) -> None:
    assert read_instruction(parse_instruction(text)).motion.name == motion


def test_oversleeping_in_japanese_is_sleeping() -> None:
    reading = read_turn(parse_instruction("キキは寝坊した"), [], ["キキ"])
    assert (reading.motion.name, reading.warnings) == ("sleep", [])
