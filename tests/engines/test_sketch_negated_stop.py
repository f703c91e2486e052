"""A negated stop ("never stop running") keeps the motion that follows instead of drawing
idle; a plain one ("stops running") is idle, not idle with the stopped motion "left out"."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import Reading, read_instruction


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi never stops running", "run"),
    ("never stop running", "run"),
    ("Qiqi doesn't stop dancing", "dance"),
    ("Qiqi doesn\u2019t stop dancing", "dance"),
    ("Qiqi can't stop laughing", "laugh"),
    ("Qiqi won't ever stop crying", "cry"),
    ("Qiqi does not stop running", "run"),
    ("Character: Qiqi; Motion: never stop running; Background: town", "run"),
    ("Character: Qiqi; Motion: can't stop laughing", "laugh"),
])
def test_a_negated_stop_keeps_the_motion_that_follows(text: str, motion: str) -> None:
    reading = read(text)
    assert reading.motion.name == motion
    assert reading.warnings == []


def test_the_rest_of_the_instruction_is_still_read() -> None:
    reading = read("Qiqi never stops running quickly through the park at night")
    assert (reading.motion.name, reading.adverb, reading.location, reading.time) == ("run", "quickly", "park", "night")


def test_an_unknown_motion_after_a_negated_stop_gets_its_stand_in() -> None:
    reading = read("Character: Qiqi; Motion: never stop juggling")
    assert reading.motion.name == "wave"
    assert reading.warnings == ["'juggling' unknown, shown as 'wave'"]


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi keeps on running", "run"),
    ("Qiqi runs without stopping", "run"),
])
def test_a_stop_that_is_not_negated_reads_as_before(text: str, motion: str) -> None:
    reading = read(text)
    assert reading.motion.name == motion
    assert reading.warnings == []


@pytest.mark.parametrize("text", [
    "Qiqi stops running", "Qiqi stopped dancing", "Character: Qiqi; Motion: stop running"])
def test_a_stopped_motion_is_idle_and_not_a_second_motion_left_out(text: str) -> None:
    reading = read(text)
    assert reading.motion.name == "idle"
    assert reading.warnings == []


def test_a_motion_named_besides_a_stopped_one_is_the_one_left_out() -> None:
    reading = read("Qiqi stops running, she sits")
    assert reading.motion.name == "idle"
    assert reading.warnings == ["several motions named, shown as 'idle'; left out 'sit' (a clip shows one motion)"]


@pytest.mark.parametrize("text", ["Qiqi doesn't run", "Qiqi doesn't stop", "Qiqi doesn't stop to rest"])
def test_other_negations_still_show_idle_with_a_warning(text: str) -> None:
    reading = read(text)
    assert reading.motion.name == "idle"
    assert any("motion not done, shown as 'idle'" in w for w in reading.warnings), reading.warnings

