"""Words the engine misread: "her head" is no walk ("heads home" still is), "refuses to dance"
does not dance, "wakes up" stretches (it said no motion found), and an instruction of
invisible characters only (zero-width spaces) is empty."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import Reading, read_instruction


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi scratches her head", "idle"),
    ("Qiqi shakes her head", "shiver"),
    ("Qiqi heads home", "walk"),
    ("Qiqi heads to the park", "walk"),
    ("Qiqi turns her head", "turn head"),
    ("Qiqi bows her head", "bow"),
    ("Qiqi nods her head", "nod"),
])
def test_a_head_is_a_head(text: str, motion: str) -> None:
    reading = read(text)
    assert reading.motion.name == motion
    assert not any("left out" in w for w in reading.warnings), reading.warnings


def test_shaking_the_head_and_heading_home_names_both() -> None:
    reading = read("Qiqi shakes her head and heads home")
    assert reading.motion.name == "shiver"
    assert reading.warnings == ["several motions named, shown as 'shiver'; left out 'walk' (a clip shows one motion)"]


def test_refusing_is_not_doing() -> None:
    reading = read("Qiqi refuses to dance")
    assert reading.motion.name == "idle"
    assert reading.warnings == ["'refuses to dance' is a motion not done, shown as 'idle'"]
    assert read("Qiqi refuses to dance, she sits").motion.name == "sit"


def test_waking_up_stretches() -> None:
    reading = read("Qiqi wakes up in the bedroom")
    assert (reading.motion.name, reading.location) == ("stretch", "bedroom")
    assert reading.warnings == ["'wake' unknown, shown as 'stretch'"]


@pytest.mark.parametrize("text", ["\u200b\u200b", "\u200d", " \u2060 "])
def test_invisible_characters_only_are_an_empty_instruction(text: str) -> None:
    assert read(text).warnings == ["empty instruction, shown as 'idle'"]


def test_a_soft_hyphen_inside_a_word_is_read_through() -> None:
    reading = read("Qiqi dan\u00adces in the park")
    assert (reading.motion.name, reading.location, reading.warnings) == ("dance", "park", [])
