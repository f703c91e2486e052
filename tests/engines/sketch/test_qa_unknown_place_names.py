"""A capitalised name written as the place that no place of the world is ("runs in Mordor",
"flies to Hogwarts") says so and where the turn is drawn instead. Before, the turn was drawn
in the place of the turn before without a word. Dates, languages, people and texts written
all in capitals or title case give no such warning."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember, Location
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_instruction, unknown_place_names

from ..sketch_helpers import SMALL, as_turn, predict


def _place_warnings(warnings: tuple[str, ...]) -> list[str]:
    return [w for w in warnings if "no place of this world" in w]


@pytest.mark.parametrize(("text", "name", "shown"), [
    ("Gandalf runs in Mordor", "Mordor", "town"),
    ("Qiqi flies to Hogwarts", "Hogwarts", "sky"),
    ("Qiqi walks through the Shire", "Shire", "town"),
    ("Qiqi runs to New York", "New York", "town"),
    ("Qiqi reads at Starbucks", "Starbucks", "town"),
    ("Yesterday Qiqi ran into Narnia", "Narnia", "town"),
    ("Qiqi and I dance in Tokyo", "Tokyo", "town"),
    ("Qiqi walks inside Hogsmeade", "Hogsmeade", "town"),
    ("Qiqi waves in Saint Petersburg", "Saint Petersburg", "town"),
    ("Qiqi runs. Later she sleeps in Rivendell", "Rivendell", "town"),
])
def test_an_unknown_place_name_is_said(text: str, name: str, shown: str) -> None:
    prediction = predict(SketchEngine(), text, settings=SMALL)
    assert prediction.conditioning["location"] == shown
    assert _place_warnings(prediction.warnings) == [f"'{name}' is no place of this world, shown as '{shown}'"]


def test_the_warning_names_the_place_of_the_turn_before() -> None:
    engine = SketchEngine()
    before = predict(engine, "Qiqi walks in the park", settings=SMALL)
    after = predict(engine, "Qiqi runs in Mordor", settings=SMALL,
                    history=(as_turn(before, "Qiqi walks in the park"),))
    assert after.conditioning["location"] == "park"
    assert _place_warnings(after.warnings) == ["'Mordor' is no place of this world, shown as 'park'"]


@pytest.mark.parametrize("text", [
    "Qiqi runs in May",
    "Qiqi speaks in French",
    "Qiqi sings in Japanese at night",
    "Qiqi runs on Monday",
    "Qiqi dances at Christmas",
    "Qiqi talks to Gandalf",
    "Qiqi smiles at Gandalf",
    "Qiqi throws a ball at Gandalf",
    "Qiqi sits next to Gandalf",
    "Qiqi gives a flower to Gandalf",
    "Qiqi runs to Yuzu",
    "Qiqi Runs In Mordor",
    "QIQI RUNS IN MORDOR",
    "Qiqi walks to the Park",
    "Qiqi runs in the park near Hogwarts",
    "I run in the park",
    "OK, Qiqi runs to the station",
    "Qiqi waits for Grandma at the station",
    "Qiqi runs to Mr",
    "Qiqi says: let's fly to Hogwarts",
    'Qiqi says "see you in Mordor"',
    "Character: Qiqi; Motion: run; Background: park",
    "Qiqi runs in Mordor; Background: beach",
])
def test_ordinary_capitals_and_known_places_give_no_warning(text: str) -> None:
    prediction = predict(SketchEngine(), text, settings=SMALL)
    assert _place_warnings(prediction.warnings) == []


def test_a_cast_member_is_someone_not_a_place() -> None:
    cast = (CastMember("c1", "Gandalf"),)
    prediction = predict(SketchEngine(), "Qiqi runs to Gandalf", settings=SMALL, cast=cast)
    assert _place_warnings(prediction.warnings) == []


def test_a_project_location_is_a_place_of_the_world() -> None:
    locations = (Location("l1", "Mordor", params={"scene": "mountain"}), Location("l2", "Hogwarts Castle"))
    engine = SketchEngine()
    mordor = predict(engine, "Qiqi runs in Mordor", settings=SMALL, locations=locations)
    assert mordor.conditioning["location"] == "Mordor"
    assert _place_warnings(mordor.warnings) == []
    assert unknown_place_names("Qiqi flies to Hogwarts", ["Hogwarts Castle"]) == []
    assert unknown_place_names("Qiqi flies to Hogwarts") == ["Hogwarts"]


def test_the_reading_carries_the_names_and_nothing_else_changes() -> None:
    reading = read_instruction(parse_instruction("Gandalf runs quickly in Mordor at night"))
    assert (reading.motion.name, reading.adverb, reading.location, reading.time) == ("run", "quickly", "", "night")
    assert reading.unknown_places == ("Mordor",)
    assert reading.warnings == []
    assert read_instruction(parse_instruction("Qiqi runs in the park")).unknown_places == ()
