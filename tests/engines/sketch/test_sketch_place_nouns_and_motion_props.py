"""Where a turn happens, as an author writes it:

- "train" and "waves" are both motions and places. Written as nouns (behind a determiner or a
  locative preposition) they are the place: "Yuzu catches the train" was a catch with a warning
  that a punch ("train") was left out, and no station; "Aoi swims in the waves" left out a wave
  and drew no sea. As verbs they stay motions ("trains hard", "waves at Yuzu"), and "a little
  wave" is a greeting.
- A place written as part of the motion ("climbs a tree", "lies on the grass") says where only
  when no other place follows a preposition: "Qiqi climbs a tree in the park" was drawn in the
  forest."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_instruction

from ..sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize(("text", "motion", "location"), [
    ("Yuzu catches the train", "catch", "station"),
    ("Qiqi catches the last train home", "catch", "station"),
    ("Qiqi sleeps on the train", "sleep", "station"),
    ("Qiqi travels by train", "walk", "station"),
    ("Aoi swims in the waves", "swim", "sea"),
    ("Qiqi walks along the waves", "walk", "sea"),
    ("Qiqi waves at the big waves", "wave", "sea"),
])
def test_train_and_waves_written_as_nouns_are_places(text: str, motion: str, location: str) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.location, reading.location_given) == (motion, location, True)
    assert reading.warnings == []


@pytest.mark.parametrize(("text", "motion"), [
    ("Aoi trains hard", "punch"),
    ("Qiqi wants to train", "punch"),
    ("Yuzu waves goodbye", "wave"),
    ("Qiqi gives a little wave", "wave"),
    ("Qiqi waves at the crowd", "wave"),
])
def test_train_and_wave_as_verbs_stay_motions_and_name_no_place(text: str, motion: str) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.location, reading.location_given) == (motion, "", False)


@pytest.mark.parametrize(("text", "location"), [
    ("Qiqi climbs a tree in the park", "park"),
    ("Qiqi climbs a tree at the shrine", "shrine"),
    ("Qiqi lies on the grass in the garden", "garden"),
    ("Qiqi climbs a tree", "forest"),  # the only place said
    ("Qiqi lies on the grass", "grass"),
])
def test_a_place_after_a_preposition_wins_over_a_place_in_the_motion(text: str, location: str) -> None:
    assert read(text).location == location


def test_the_engine_draws_the_station_for_a_train_caught() -> None:
    prediction = predict(SketchEngine(), "Yuzu catches the train", settings=SMALL)
    assert (prediction.conditioning["motion"], prediction.conditioning["scene"]) == ("catch", "station")
    assert prediction.warnings == ()
