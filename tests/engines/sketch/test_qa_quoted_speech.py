"""Words in quotes are what a character says, not what the turn shows: 'Qiqi says "let's go to
the beach"' talks where she is (it was drawn at the beach, "walk" said left out), and 'Qiqi
says "see you at night" at noon' is at noon (it was night). A quote with no other motion is
the character talking; a script line ('Aoi: "I am home"') too."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_instruction, without_speech

from ..sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize(("text", "motion", "location", "time"), [
    ('Qiqi says "let\'s go to the beach"', "talk", "", ""),
    ("Qiqi says \u201csee you at night\u201d at noon", "talk", "", "day"),
    ('Qiqi shouts "Run!" in the park', "shout", "park", ""),
    ('Qiqi asks "are you sleeping?"', "talk", "", ""),
    ("Qiqi whispers 'I can't dance'", "talk", "", ""),
    ('Qiqi sings "dance with me" in the park', "sing", "park", ""),
    ('"Let\'s dance!" says Qiqi', "talk", "", ""),
    ("Qiqi \u300c\u8d70\u308d\u3046\u300d runs to the station", "run", "station", ""),
])
def test_what_is_said_is_not_what_is_shown(text: str, motion: str, location: str, time: str) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.location, reading.time) == (motion, location, time)
    assert reading.warnings == []


def test_a_quote_and_a_motion_outside_it_draws_that_motion() -> None:
    reading = read('Qiqi says "don\'t dance" and waves')
    assert reading.motion.name == "talk"
    assert reading.warnings == ["several motions named, shown as 'talk'; left out 'wave' (a clip shows one motion)"]


def test_apostrophes_are_no_quotes() -> None:
    assert without_speech("Qiqi's friend doesn't run") == ("Qiqi's friend doesn't run", False)
    reading = read("Qiqi's cat can't stop dancing in the girls' garden")
    assert (reading.motion.name, reading.location) == ("dance", "garden")


def test_an_instruction_that_is_one_quote_is_read_as_it_is() -> None:
    reading = read('"Qiqi runs in the park"')
    assert (reading.motion.name, reading.location) == ("run", "park")


def test_a_line_of_speech_is_talked() -> None:
    engine = SketchEngine()
    said = predict(engine, '"Let\'s go to the beach!" says Qiqi in the park', settings=SMALL)
    assert (said.conditioning["motion"], said.conditioning["location"]) == ("talk", "park")
    line = predict(engine, 'Aoi: "I am home"', settings=SMALL)
    assert line.conditioning["motion"] == "talk"
    assert line.warnings == ()


def test_a_seat_named_in_speech_is_not_sat_on() -> None:
    prediction = predict(SketchEngine(), 'Qiqi says "sit on the bench, Yuzu!" in the park', settings=SMALL)
    assert prediction.conditioning["motion"] == "talk"
    assert not prediction.conditioning.get("seat")


@pytest.mark.parametrize(("text", "motion"), [
    ('"I am hungry," Qiqi', "talk"),
    ('"Don\'t run," Qiqi', "talk"),
    ("Qiqi does a 'dance' in the park", "dance"),
    ('Qiqi "runs"', "run"),
])
def test_quotes_alone_are_said_unless_they_only_set_off_a_motion(text: str, motion: str) -> None:
    reading = read(text)
    assert reading.motion.name == motion
    assert reading.warnings == []
