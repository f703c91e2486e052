"""The place a user names after a preposition is where the scene is: "Qiqi shops in town" is
in town, though the verb "shops" is also a name of the bakery. A place-like word that no
preposition governs only says where when no place follows a preposition; among several places
after prepositions, the reading keeps its rule (the longest name, then the first)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_instruction

from ..sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize(("text", "location"), [
    ("Qiqi shops in town", "town"),
    ("Qiqi goes shopping in town", "town"),
    ("Qiqi shops at the market", "town"),
    ("Qiqi shops in the old town", "town"),
    ("Qiqi shops in her busy little village", "town"),
    ("In the morning Qiqi shops in Koriko", "town"),
    ("Qiqi shops near the station", "station"),
    ("Qiqi shops in front of the park", "park"),
    ("Qiqi goes shopping by the beach at night", "beach"),
    ("Qiqi shops towards the river", "river"),
    ("Qiqi goes shopping for bread in town", "town"),  # "bread" + "shops" is no bread shop
    ("Qiqi shops for coffee at the market", "town"),  # nor is "coffee" + "shops" a coffee shop
])
def test_the_place_after_a_preposition_wins_over_a_verb_that_names_a_place(text: str, location: str) -> None:
    reading = read(text)
    assert (reading.location, reading.location_given) == (location, True)


@pytest.mark.parametrize(("text", "location"), [
    ("Qiqi walks to the shop", "bakery"),  # the shop is the place named
    ("Qiqi shops", "bakery"),  # no preposition: the place-like word still says where
    ("At dusk Qiqi shops", "bakery"),  # "at dusk" names a time, not a place
    ("Qiqi shops, at night", "bakery"),
    ("Qiqi goes from the shop to the park", "park"),  # a way: where it goes...
    ("Qiqi shops from the park to the bus stop", "station"),
    ("Qiqi wants to shop", "bakery"),  # "to shop" is a verb, and the only place-like word
    ("Qiqi eats bread at the shop in town", "bakery"),
])
def test_without_a_place_after_a_preposition_the_reading_is_unchanged(text: str, location: str) -> None:
    assert read(text).location == location


def test_the_engine_draws_the_place_after_the_preposition() -> None:
    prediction = predict(SketchEngine(), "Qiqi shops at the market", settings=SMALL)
    assert prediction.conditioning["scene"] == "town"
    assert prediction.warnings == ("'shop' unknown, shown as 'walk'",)
