"""A project location named with one motion word ("Jump", "The Run") is a place where the
text writes it as one ("sits at the Jump") and a motion where it is a verb ("Qiqi will jump"):
the first is no second motion left out, the second puts the scene nowhere."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import Location
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_instruction

from ..sketch_helpers import SMALL, predict


def read(text: str, *user_locations: str) -> Reading:
    return read_instruction(parse_instruction(text), user_locations)


@pytest.mark.parametrize(("text", "place", "motion"), [
    ("Qiqi sits at the Jump", "Jump", "sit"),
    ("Qiqi sits at the Jump", "The Jump", "sit"),
    ("Qiqi waves at The Run", "The Run", "wave"),
    ("Qiqi laughs in Dance", "Dance", "laugh"),
    ("Character: Qiqi; Motion: sit at the jump", "Jump", "sit"),
])
def test_written_as_a_place_it_is_the_place_and_no_motion(text: str, place: str, motion: str) -> None:
    reading = read(text, place)
    assert (reading.motion.name, reading.location, reading.warnings) == (motion, place, [])


@pytest.mark.parametrize("text", ["Qiqi will jump", "Qiqi wants to jump", "jump", "Qiqi jumps, then rests"])
def test_written_as_a_verb_it_is_the_motion_and_no_place(text: str) -> None:
    reading = read(text, "Jump")
    assert (reading.motion.name, reading.location, reading.location_given) == ("jump", "", False)


@pytest.mark.parametrize(("text", "place"), [
    ("Background: Jump", "Jump"),  # the place field names a place whatever its word
    ("Qiqi jumps at the Old Mill", "Old Mill"),  # a name that is no motion is found as before
    ("Qiqi will shop", "Shop"),  # "shop" is no motion of ours: the project's Shop, as before
])
def test_other_project_places_are_read_as_before(text: str, place: str) -> None:
    assert read(text, place).location == place


def test_the_engine_draws_the_project_place_and_the_motion() -> None:
    jump = Location(id="l1", name="Jump", kind="builtin", params={"scene": "park"})
    prediction = predict(SketchEngine(), "Qiqi sits at the Jump", settings=SMALL, locations=(jump,))
    assert (prediction.conditioning["motion"], prediction.conditioning["location"]) == ("sit", "Jump")
    assert prediction.warnings == ()
