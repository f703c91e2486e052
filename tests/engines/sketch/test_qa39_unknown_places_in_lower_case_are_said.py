"""A place written in lower case after "in the", "at the", "to the", "on the"... that the
sketch world does not know is said, as a Background field's is: "runs in the theatre" was
drawn in the town without a word. A place with a stand-in is shown as it ("at the airport":
the station). Phrases that are no place ("in the rain", "in a hurry", "at the table") say
nothing."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_turn

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize(("text", "word"), [
    ("Qiqi runs in the theatre", "theatre"),
    ("Qiqi dances at the disco", "disco"),
    ("Qiqi runs on the track", "track"),
    ("Qiqi sings in the old opera", "old opera"),
])
def test_an_unknown_place_is_said_with_where_it_is_drawn(text: str, word: str) -> None:
    take = predict(SketchEngine(), text, seed=4, settings=SMALL)
    assert take.conditioning["scene"] == "town"
    assert f"'{word}' is no place of this world, shown as 'town'" in take.warnings


@pytest.mark.parametrize(("text", "word", "place"), [
    ("Qiqi waits at the airport", "airport", "station"),
    ("Qiqi walks to the supermarket", "supermarket", "bakery"),
    ("Qiqi naps on the couch in the neighbourhood", "neighbourhood", "town"),
])
def test_an_unknown_place_with_a_stand_in_is_shown_as_it(text: str, word: str, place: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.location == place
    assert f"'{word}' unknown, shown as '{place}'" in reading.warnings
    take = predict(SketchEngine(), text, seed=4, settings=SMALL)
    assert take.conditioning["scene"] == place


@pytest.mark.parametrize("text", [
    "Qiqi runs in the rain", "Qiqi walks in a hurry", "Qiqi eats at the table", "Qiqi looks at the picture",
    "Qiqi talks to the teacher", "Qiqi sits on the sofa", "Qiqi talks on the phone", "Qiqi sings in the dark",
    "Qiqi arrives on time", "Qiqi runs at night", "Qiqi runs in the park", "Qiqi waves on the left",
    "Qiqi dances at the party",
])
def test_phrases_that_are_no_place_say_nothing(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.unknown_places == ()
    assert not any("unknown, shown as" in w for w in reading.warnings), reading.warnings
    take = predict(SketchEngine(), text, seed=4, settings=SMALL)
    assert not any("no place of this world" in w for w in take.warnings), take.warnings


@pytest.mark.parametrize(("text", "said"), [
    ("Qiqi eats at the noodle shop", "'noodle shop' unknown, shown as 'bakery'"),
    ("Qiqi goes to the old shop", None), ("Qiqi buys bread at the bread shop", None), ("Qiqi goes to the shop", None),
])
def test_a_shop_of_another_kind_is_said_to_be_the_bakery(text: str, said: str | None) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.location == "bakery"
    assert reading.warnings == ([said] if said else [])
