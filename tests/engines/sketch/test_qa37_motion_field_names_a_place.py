"""A Motion field that names a place, a time of day or a camera move names no motion: it is
drawn idle and said so, never taken for a misspelt motion ("night" read as "fight" drew a
punch, "park" as "spar")."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_turn


@pytest.mark.parametrize(("motion", "named"), [
    ("night", "a time of day"),
    ("park", "a place"),
    ("the harbour at night", "a place and a time of day"),
    ("zoom in", "a camera move"),
    ("the park at sunset", "a place and a time of day"),
])
def test_no_motion_is_guessed_from_a_place_a_time_or_a_camera_move(motion: str, named: str) -> None:
    reading = read_turn(parse_instruction(f"Character: Qiqi; Motion: {motion}"))
    assert reading.motion.name == "idle"
    assert reading.warnings == [f"'{motion}' names {named}, not a motion, shown as 'idle'"], reading.warnings


def test_a_scene_described_in_the_motion_field_is_not_a_punch() -> None:
    reading = read_turn(parse_instruction("Character: Qiqi; Motion: the harbour park at night with lanterns"))
    assert reading.motion.name != "punch", "'night' is not a misspelt 'fight'"
    assert reading.warnings and "unknown, shown as" in reading.warnings[0]


@pytest.mark.parametrize(("motion", "shown"), [
    ("sweep the park", "sweep"),  # a motion with a place: the motion, no warning
    ("fihgt", "punch"),  # a misspelt motion is still read as its motion
    ("juggle", "wave"),
])
def test_motions_and_misspellings_read_as_before(motion: str, shown: str) -> None:
    assert read_turn(parse_instruction(f"Motion: {motion}")).motion.name == shown
