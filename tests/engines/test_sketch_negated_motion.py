"""A motion the instruction says is not done ("doesn't run") is not the motion drawn."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_instruction


def read(text: str):  # type: ignore[no-untyped-def]
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize("text", [
    "Qiqi doesn't run",
    "Qiqi doesn\u2019t run",
    "Qiqi doesnt run",
    "Qiqi does not run",
    "Qiqi never runs",
    "Qiqi is not crying",
    "Qiqi won't fly today",
    "Character: Qiqi; Motion: don't run; Background: town",
])
def test_a_negated_motion_alone_is_shown_as_idle_with_a_warning(text: str) -> None:
    reading = read(text)
    assert reading.motion.name == "idle"
    assert any("motion not done, shown as 'idle'" in w for w in reading.warnings), reading.warnings


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi does not fly, she walks", "walk"),
    ("Qiqi does not fly but walks", "walk"),
    ("Qiqi, not running, sits", "sit"),
    ("Qiqi runs without stopping", "run"),
])
def test_the_motion_that_is_done_wins_over_the_negated_one(text: str, motion: str) -> None:
    reading = read(text)
    assert reading.motion.name == motion
    assert reading.warnings == []


def test_the_warning_names_the_negated_words_only() -> None:
    reading = read("Qiqi doesn't run at night in the park")
    assert "'doesn't run' is a motion not done, shown as 'idle'" in reading.warnings
    assert (reading.location, reading.time) == ("park", "night")


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi runs through the town at night", "run"),
    ("Qiqi says no", "talk"),
    ("Character: Qiqi; Motion: quickly run; Background: day town.", "run"),
])
def test_text_without_a_negated_motion_reads_as_before(text: str, motion: str) -> None:
    reading = read(text)
    assert reading.motion.name == motion
    assert reading.warnings == []
