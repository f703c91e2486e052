"""Everyday motions the world has no word for are read as the nearest it has: snuggling is a
hug, taking the train (or a bus) is sitting, drawn at the station where the train is named, and
hiding, which no motion of the world shows, is the sneak, said as other unknown motions are.
They were all the idle, "no motion found"."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_turn

NAMES = ["Yuzu", "Qiqi"]


@pytest.mark.parametrize(("text", "motion"), [
    ("Yuzu snuggles", "hug"), ("Yuzu snuggles up to Qiqi", "hug"), ("Yuzu takes the train", "sit"),
    ("Yuzu rides the bus to school", "sit"), ("Motion: take the train", "sit"),
])
def test_read_as_the_nearest_motion(text: str, motion: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == motion
    assert not any(warning.startswith("no motion found") for warning in reading.warnings)


def test_the_train_is_at_the_station() -> None:
    assert read_turn(parse_instruction("Yuzu takes the train"), [], NAMES).location == "station"


@pytest.mark.parametrize("text", ["Yuzu hides behind a tree", "Yuzu is hiding", "Yuzu hid under the bed"])
def test_hiding_is_a_sneak_said(text: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == "sneak"
    assert "'hide' unknown, shown as 'sneak'" in reading.warnings


@pytest.mark.parametrize(("text", "motion"), [("Yuzu takes a walk", "walk"), ("Yuzu trains hard", "punch")])
def test_other_takes_and_trains_are_as_before(text: str, motion: str) -> None:
    assert read_turn(parse_instruction(text), [], NAMES).motion.name == motion
