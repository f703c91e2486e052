"""A word the sketch world does not know is shown as a stand-in that means the same, or as the
default with the "unknown" warning, not as a word that only shares letters with it:
"Background: sofa" was the sea, "neighbourhood" the sea, "Motion: chill" a talk, "colour the
picture" cooking. Real misspellings still read as the word meant ("parkk" is the park)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_turn

from ..sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_turn(parse_instruction(text))


@pytest.mark.parametrize(("word", "place"), [
    ("sofa", "bedroom"), ("couch", "bedroom"), ("living room", "bedroom"), ("neighbourhood", "town"),
    ("neighborhood", "town"), ("street", "street"), ("avenue", "street"),
])
def test_a_common_place_word_is_shown_as_the_place_it_means(word: str, place: str) -> None:
    reading = read(f"Motion: sleep\nBackground: {word}")
    assert reading.location == place
    assert all("'sea'" not in w for w in reading.warnings)


@pytest.mark.parametrize(("word", "motion"), [
    ("chill", "idle"), ("chill out", "idle"), ("relax", "idle"), ("lounge", "sit"),
    ("colour the picture", "write"), ("color", "write"), ("draw", "write"), ("paint a picture", "write"),
])
def test_a_common_motion_word_is_shown_as_the_motion_it_means(word: str, motion: str) -> None:
    assert read(f"Motion: {word}").motion.name == motion


@pytest.mark.parametrize(("text", "place"), [
    ("Background: skool", "town"), ("Background: theatre", "town"), ("Background: disco", "town"),
])
def test_a_word_only_like_a_place_falls_back_to_the_default(text: str, place: str) -> None:
    reading = read(f"Motion: walk\n{text}")
    assert reading.location == place
    assert reading.warnings == [f"'{text.split(': ')[1]}' unknown, shown as '{place}'"]


@pytest.mark.parametrize("word", ["levitate", "meander", "wobble"])
def test_a_word_only_like_a_motion_is_idle_and_said(word: str) -> None:
    reading = read(f"Motion: {word}")
    assert reading.motion.name == "idle"
    assert reading.warnings == [f"'{word}' unknown, shown as 'idle'"]


@pytest.mark.parametrize(("text", "place"), [
    ("parkk", "park"), ("gardn", "garden"), ("libary", "library"), ("mountian", "mountain"), ("beech", "beach"),
    ("resturant", "cafe"),
])
def test_a_misspelt_place_is_still_the_place(text: str, place: str) -> None:
    reading = read(f"Motion: walk\nBackground: {text}")
    assert reading.location == place
    assert reading.warnings == [f"'{text}' unknown, shown as '{place}'"]


@pytest.mark.parametrize(("word", "motion"), [("rnus", "run"), ("dnace", "dance"), ("swimm", "swim")])
def test_a_misspelt_motion_field_is_still_the_motion(word: str, motion: str) -> None:
    assert read(f"Motion: {word}").motion.name == motion


def test_qiqi_sleeps_on_the_sofa_in_her_room_not_at_the_sea() -> None:
    take = predict(SketchEngine(), "Motion: sleep\nBackground: sofa", seed=1, settings=SMALL)
    assert take.conditioning["scene"] == "bedroom"
