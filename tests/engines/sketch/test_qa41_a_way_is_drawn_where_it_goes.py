"""A way from one place to another ("runs from the art room to the park") is drawn where it goes:
it was drawn in the bedroom (the "room" of "art room"). Where it goes being no place of ours, it
is drawn where it starts, and the place it goes to is said."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_instruction

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize(("text", "place"), [
    ("Qiqi runs from the art room to the park", "park"),
    ("Qiqi goes from the shop to the park", "park"),
    ("Qiqi walks from school to the beach", "beach"),
    ("Qiqi flies from the beach into the sky", "sky"),
    ("Qiqi walks from the station towards the forest", "forest"),
])
def test_the_way_is_drawn_where_it_goes(text: str, place: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert (reading.location, reading.location_given) == (place, True)
    assert not any("unknown" in w for w in reading.warnings)


def test_a_school_room_it_goes_to_is_the_classroom_said() -> None:
    reading = read_instruction(parse_instruction("Qiqi runs from the park to the art room"))
    assert reading.location == "classroom"
    assert "'art room' unknown, shown as 'classroom'" in reading.warnings


def test_where_it_goes_being_no_place_it_is_drawn_where_it_starts() -> None:
    take = predict(SketchEngine(), "Qiqi walks from the station to Mordor", settings=SMALL)
    assert take.conditioning["scene"] == "station"
    assert "'Mordor' is no place of this world, shown as 'station'" in take.warnings


def test_the_engine_draws_the_park() -> None:
    take = predict(SketchEngine(), "Qiqi runs from the art room to the park", settings=SMALL)
    assert take.conditioning["scene"] == "park"
