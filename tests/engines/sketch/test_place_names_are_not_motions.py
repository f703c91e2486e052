"""A place name is not a motion: "Qiqi laughs at the bus stop" is a laugh at the station,
not a laugh with a stop left out, and "at the study room" is no studying. The motion is read
without the place names of more than one word (built-in ones, their aliases and the
project's own), while a motion word elsewhere in the line still counts."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.text import STOPWORDS, lemmas
from studio.engines.sketch.understanding import Reading, read_instruction
from studio.engines.sketch.vocabulary import KNOWN_WORDS, LOCATIONS, MOTIONS

from ..sketch_helpers import SMALL, predict


def read(text: str, user_locations: tuple[str, ...] = ()) -> Reading:
    return read_instruction(parse_instruction(text), user_locations)


def _words(phrase: str) -> set[str]:
    return {w for w in lemmas(phrase, KNOWN_WORDS) if w not in STOPWORDS}


def places_naming_a_motion() -> list[tuple[str, str, str]]:
    """(place phrase, its location, the motion its words name) for every built-in location
    name or alias of more than one word that holds all the words of a motion phrase, found
    from the vocabularies (not listed by hand, so a new alias is covered too)."""
    found = []
    for loc in LOCATIONS:
        for phrase in loc.phrases:
            words = _words(phrase)
            motions = [m.name for m in MOTIONS if any(_words(p) <= words for p in m.phrases)]
            if len(words) > 1 and motions:
                found.append((phrase, loc.name, motions[0]))
    return found


PLACES = places_naming_a_motion()


def test_the_places_that_hold_a_motion_are_found() -> None:
    assert {(p, m) for p, _, m in PLACES} >= {
        ("bus stop", "idle"), ("study room", "read"), ("tea room", "drink"), ("tea house", "drink"),
        ("coffee shop", "drink"), ("train station", "punch"), ("bread shop", "eat")}


@pytest.mark.parametrize(("place", "location", "motion"), PLACES)
@pytest.mark.parametrize("template", [
    "Qiqi laughs at the {place}",
    "at the {place} laughing",
    "At the {place}, Qiqi laughs",
    "Character: Qiqi; Motion: laugh at the {place}",
    "Qiqi doesn't run, she laughs at the {place}",
])
def test_a_place_name_names_no_motion(template: str, place: str, location: str, motion: str) -> None:
    reading = read(template.format(place=place))
    assert (reading.motion.name, reading.location, reading.warnings) == ("laugh", location, [])


@pytest.mark.parametrize(("place", "location", "motion"), PLACES)
def test_a_place_alone_is_no_motion_and_says_so(place: str, location: str, motion: str) -> None:
    reading = read(f"Qiqi is at the {place}")
    assert (reading.motion.name, reading.location) == ("idle", location)
    assert reading.warnings == [f"no motion found in 'Qiqi is at the {place}', shown as 'idle'"]


def test_a_motion_field_holding_only_a_place_says_it_is_a_place() -> None:
    reading = read("Character: Qiqi; Motion: study room")
    assert reading.motion.name == "idle"
    assert reading.warnings == ["'study room' names a place, not a motion, shown as 'idle'"]


@pytest.mark.parametrize(("text", "motion", "location"), [
    ("Qiqi stops at the bus stop", "idle", "station"),
    ("At the bus stop Qiqi stops laughing", "idle", "station"),
    ("Qiqi studies in the study room", "read", "library"),
    ("Qiqi drinks tea in the tea room", "drink", "cafe"),
    ("Qiqi trains at the train station", "punch", "station"),
    ("Qiqi eats at the bread shop", "eat", "bakery"),
    ("Character: Qiqi; Motion: stop; Background: bus stop", "idle", "station"),
])
def test_a_motion_word_outside_the_place_name_still_counts(text: str, motion: str, location: str) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.location, reading.warnings) == (motion, location, [])


@pytest.mark.parametrize("text", [
    "Character: Qiqi; Motion: laugh; Background: bus stop",
    "Motion: laugh; Background: bus stop",
    "Character: Qiqi; Motion: laugh; Background: study room",
])
def test_the_key_form_still_reads_the_motion_and_the_place(text: str) -> None:
    reading = read(text)
    assert reading.motion.name == "laugh" and reading.location in {"station", "library"}
    assert reading.warnings == []


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi laughs at the bus-stop", "laugh"),
    ("Qiqi laughs at the Bus Stops", "laugh"),
    ("near the tea-house Qiqi giggles", "laugh"),
])
def test_a_place_name_is_found_however_it_is_written(text: str, motion: str) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.warnings) == (motion, [])


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi goes to bed", "sleep"),  # a one-word place can be part of a motion...
    ("Qiqi lies on the grass", "lie down"),
    ("Qiqi trains", "punch"),  # ...or be one
    ("Qiqi studies, room by room", "read"),  # punctuation parts a name's words
    ("Qiqi studies the room", "read"),
])
def test_words_that_are_not_a_place_name_as_written_stay_motion_words(text: str, motion: str) -> None:
    assert read(text).motion.name == motion


def test_the_projects_own_place_names_are_not_motions_either() -> None:
    reading = read("At the Dance Hall Qiqi laughs", ("Dance Hall",))
    assert (reading.motion.name, reading.location, reading.warnings) == ("laugh", "Dance Hall", [])
    assert read("Qiqi dances at the Old Mill", ("The Old Mill",)).motion.name == "dance"


def test_the_drawn_take_shows_the_motion_without_a_warning() -> None:
    pred = predict(SketchEngine(), "Qiqi laughs at the bus stop", settings=SMALL)
    assert (pred.conditioning["motion"], pred.conditioning["scene"]) == ("laugh", "station")
    assert pred.warnings == ()


def test_a_one_word_place_written_as_a_noun_is_no_stand_in_motion() -> None:
    """"shop" is the bakery's name and the stand-in word for walking ("Qiqi shops"); after an
    article it is the place, so the line names no motion at all."""
    at_the_shop = read_instruction(parse_instruction("Qiqi is at the shop"))
    assert at_the_shop.motion.name == "idle" and at_the_shop.location == "bakery"
    assert not any("'shop' unknown" in w for w in at_the_shop.warnings)
    shops = read_instruction(parse_instruction("Qiqi shops"))
    assert shops.motion.name == "walk" and "'shop' unknown, shown as 'walk'" in shops.warnings
    phone = read_instruction(parse_instruction("Qiqi is on the phone"))  # not a place: the stand-in stays
    assert phone.motion.name == "talk"
