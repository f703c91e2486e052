"""A place or a time of day misspelt in free text is read as a Background or Time field reads
it, with a warning: "Qiqi jumpd in the prak" was idle, with "'prak' is no place of this
world", and "at nihgt" was drawn by day. Two neighbouring letters swapped, or a letter more or
less, are read so ("prak", "parkk", "scohol", "nihgt", "evenign"); a letter changed is not, in
free text, where it is most often another word ("in the hall" is no hill, "in her mouth" no
mountain, "in the dust" no dusk). A short motion verb written with a letter missing from one
of its longer forms is read as it ("jumpd", "walkd")."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_turn

from ..sketch_helpers import SMALL, predict


def test_a_jump_in_the_park_with_two_typos_is_drawn_and_said() -> None:
    take = predict(SketchEngine(), "Qiqi jumpd in the prak", settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["scene"]) == ("jump", "park")
    assert "'jumpd' unknown, shown as 'jump'" in take.warnings
    assert "'prak' unknown, shown as 'park'" in take.warnings
    assert not any("no place of this world" in warning for warning in take.warnings)


@pytest.mark.parametrize(("text", "word", "place"), [
    ("Qiqi runs in the prak", "prak", "park"),
    ("Qiqi runs in the parkk", "parkk", "park"),
    ("Qiqi walks to scohol", "scohol", "school"),
    ("Qiqi reads in the libary", "libary", "library"),
    ("Qiqi waits at the staton", "staton", "station"),
    ("Qiqi waits at the airprot", "airprot", "station"),
])
def test_a_misspelt_place_is_read_as_the_background_field_reads_it(text: str, word: str, place: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.location == place
    assert f"'{word}' unknown, shown as '{place}'" in reading.warnings
    assert reading.unknown_places == ()
    field = read_turn(parse_instruction(f"Character: Qiqi; Motion: run; Background: {word}"))
    assert field.location == place


@pytest.mark.parametrize(("text", "word", "time"), [
    ("Qiqi runs at nihgt", "nihgt", "night"),
    ("Qiqi runs at nigt", "nigt", "night"),
    ("Qiqi sings in the evenign", "evenign", "sunset"),
    ("Qiqi walks in the mornign", "mornign", "day"),
])
def test_a_misspelt_time_is_read_as_the_time_field_reads_it(text: str, word: str, time: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.time == time
    assert f"'{word}' unknown, shown as '{time}'" in reading.warnings
    assert reading.unknown_places == ()


def test_a_run_at_nihgt_is_drawn_at_night() -> None:
    take = predict(SketchEngine(), "Qiqi runs at nihgt", settings=SMALL)
    assert take.conditioning["time_of_day"] == "night"


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi jumpd", "jump"),
    ("Qiqi walkd to the park", "walk"),
    ("Qiqi talkd to Yuzu", "talk"),
])
def test_a_short_motion_with_a_letter_off_a_longer_form_is_read(text: str, motion: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.motion.name == motion
    assert any(warning.endswith(f"unknown, shown as '{motion}'") for warning in reading.warnings)


@pytest.mark.parametrize("text", [
    "Qiqi runs in the hall",
    "Qiqi eats with bread in her mouth",
    "Qiqi runs in case it rains",
    "Qiqi sits in the dust",
    "Qiqi talks to the bark",
])
def test_other_words_near_a_place_or_time_stay_what_they_are(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.location == ""
    assert reading.time == ""
    assert not any("shown as" in warning and "motion" not in warning for warning in reading.warnings)


@pytest.mark.parametrize("text", ["Qiqi placed a cup on the table", "Qiqi payed for the bread"])
def test_a_real_word_a_letter_off_a_short_motion_is_no_motion(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.motion.name not in ("play", "pray")
