"""An instrument played is not drawn: it is shown as singing (music notes around the character,
the nearest to making music), said, not silently as ball play. A room of a school ("the music
room", "the art room", "the gym") is shown as the classroom, said, not silently as the bedroom."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_instruction

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize(("text", "instrument"), [
    ("Qiqi plays guitar in the music room", "guitar"),
    ("Qiqi plays piano", "piano"),
    ("Qiqi plays the violin at home", "violin"),
    ("Qiqi plays the drums", "drum"),
    ("Motion: play piano", "piano"),
])
def test_an_instrument_played_is_sung_and_said(text: str, instrument: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "sing"
    assert f"'{instrument}' is not drawn: shown as 'sing'" in reading.warnings


def test_the_engine_draws_no_ball_for_a_guitar() -> None:
    take = predict(SketchEngine(), "Qiqi plays guitar in the music room", settings=SMALL)
    assert take.conditioning["motion"] == "sing"
    assert "'guitar' is not drawn: shown as 'sing'" in take.warnings
    assert "'music room' unknown, shown as 'classroom'" in take.warnings
    assert take.conditioning["scene"] == "classroom"


@pytest.mark.parametrize(("text", "instrument"), [
    ("Qiqi plays the guitar and sings", "guitar"), ("Qiqi sings and plays piano", "piano"),
])
def test_playing_and_singing_is_one_song_said_once(text: str, instrument: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "sing"
    assert reading.warnings == [f"'{instrument}' is not drawn: shown as 'sing'"]


def test_a_ball_game_besides_a_song_is_still_left_out() -> None:
    reading = read_instruction(parse_instruction("Qiqi sings and plays ball"))
    assert reading.motion.name == "sing"
    assert any("left out 'play'" in w for w in reading.warnings)


@pytest.mark.parametrize("text", ["Qiqi plays ball in the park", "Qiqi plays", "Qiqi plays a game"])
def test_ball_play_stays_play(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "play"
    assert not any("is not drawn" in w for w in reading.warnings)


@pytest.mark.parametrize(("text", "room"), [
    ("Qiqi goes to the art room", "art room"),
    ("Qiqi reads in the music room", "music room"),
    ("Qiqi drinks tea in the staff room", "staff room"),
    ("Qiqi runs in the gym", "gym"),
])
def test_a_room_of_a_school_is_the_classroom_said(text: str, room: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.location == "classroom"
    assert f"'{room}' unknown, shown as 'classroom'" in reading.warnings


def test_a_school_room_in_the_background_field_is_the_classroom() -> None:
    reading = read_instruction(parse_instruction("Qiqi reads\nBackground: music room"))
    assert reading.location == "classroom"
    assert "'music room' unknown, shown as 'classroom'" in reading.warnings


@pytest.mark.parametrize("text", ["Qiqi sleeps in her room", "Qiqi reads in the living room"])
def test_other_rooms_stay_the_bedroom(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.location == "bedroom"
    assert not any("classroom" in w for w in reading.warnings)
