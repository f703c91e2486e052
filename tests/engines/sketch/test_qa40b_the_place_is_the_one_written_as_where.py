"""In a project whose locations are named like the built-in ones (a new project's), the place of a
turn is the one written as where, as for the built-in names: a project location named anywhere in
the text won over it when its name was longer. "At sunset Qiqi sits on the roof watching the sky"
was in the sky (the roof is where she sits), "Qiqi meets Yuzu at the cafe after school" at school
("after school" is a time) and "Qiqi grabs a coffee at the cafe, then heads to the library" in
the library (the coffee is drunk at the cafe)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import Location
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.defaults import load_default_world
from studio.engines.sketch.understanding import read_turn

from ..sketch_helpers import SMALL, predict

WORLD = [location.name for location in load_default_world()]


@pytest.mark.parametrize(("text", "place"), [
    ("At sunset Qiqi sits on the roof watching the sky", "rooftop"),
    ("Qiqi meets Yuzu at the cafe after school", "cafe"),
    ("Qiqi grabs a coffee at the cafe, then heads to the library", "cafe"),
    ("Qiqi lies on the grass in the garden", "garden"),
    ("Qiqi climbs a tree in the park", "park"),
    ("Qiqi walks to school", "school"),
    ("Qiqi reads in the library", "library"),
    ("Qiqi catches the train", "station"),
    ("Qiqi sleeps in her room", "bedroom"),
])
def test_the_place_written_as_where_is_the_turns(text: str, place: str) -> None:
    assert read_turn(parse_instruction(text), WORLD).location == place
    assert read_turn(parse_instruction(text)).location == place  # as without the project's locations


def test_a_take_in_a_new_project_is_drawn_on_the_roof() -> None:
    locations = load_default_world()
    assert all(isinstance(location, Location) for location in locations)
    take = predict(SketchEngine(), "At sunset Qiqi sits on the roof watching the sky", seed=1, settings=SMALL,
                   locations=locations)
    assert (take.conditioning["location"], take.conditioning["scene"]) == ("rooftop", "rooftop")


def test_a_project_place_of_its_own_name_is_still_found() -> None:
    reading = read_turn(parse_instruction("Qiqi bakes bread at Grandma's House near the park"),
                        ["Grandma's House", *WORLD])
    assert reading.location == "Grandma's House"
    reading = read_turn(parse_instruction("Qiqi waves from the Old Mill"), ["Old Mill"])
    assert reading.location == "Old Mill"


@pytest.mark.parametrize(("text", "motion", "place"), [
    ("After eating at the cafe, Qiqi runs to the park", "run", "park"),
    ("Before she reads in the library, Qiqi eats at the cafe", "eat", "cafe"),
    ("カフェで食べた後で公園まで走る", "run", "park"),
])
def test_the_place_is_that_of_the_clause_shown(text: str, motion: str, place: str) -> None:
    for locations in ((), WORLD):
        reading = read_turn(parse_instruction(text), locations)
        assert (reading.motion.name, reading.location) == (motion, place)
