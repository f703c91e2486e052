"""A place the text says the character is not at is not the scene when another place is
named: "Qiqi doesn't go to the shop, she runs in the park" is in the park. With no other
place, the negated one is still drawn ("Qiqi never runs in the park")."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import Reading, read_instruction


def read(text: str, *user_locations: str) -> Reading:
    return read_instruction(parse_instruction(text), user_locations)


@pytest.mark.parametrize(("text", "motion", "location"), [
    ("Qiqi doesn't go to the shop, she runs in the park", "run", "park"),
    ("Qiqi isn't in town, she sits at the beach", "sit", "beach"),
    ("Qiqi doesn't run at the beach, she sits on the grass", "sit", "grass"),
    ("Qiqi runs in the park, not at the beach", "run", "park"),
])
def test_the_place_not_negated_is_the_scene(text: str, motion: str, location: str) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.location, reading.warnings) == (motion, location, [])


def test_a_negated_project_place_gives_way_too() -> None:
    reading = read("Qiqi doesn't sleep at the Old Mill, she dances in town", "Old Mill")
    assert (reading.motion.name, reading.location) == ("dance", "town")


@pytest.mark.parametrize(("text", "location"), [
    ("Qiqi never runs in the park", "park"),
    ("Qiqi is not at the station", "station"),
])
def test_a_negated_place_alone_is_still_drawn(text: str, location: str) -> None:
    assert read(text).location == location
