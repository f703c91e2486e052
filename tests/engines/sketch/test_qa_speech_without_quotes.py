"""Speech written without quotes is what a character says, not what the turn shows: after a
verb of speech and a colon, "that" or (asking) "to", the rest of the clause is said or asked
for. Before, "Qiqi says: let's go home" drew a talk in the bedroom with 'walk' said left out,
"Aoi: I am home" was idle in the bedroom, and "Qiqi tells Yuzu to run" said the run was left
out. Ordinary instructions around such verbs read as they did."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_instruction, said_spans, without_speech

from ..sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi says: let's go home", "talk"),
    ("Qiqi says: let's go to the beach", "talk"),
    ("Qiqi whispers: see you at night", "talk"),
    ("Qiqi shouts: run to the park!", "shout"),
    ("Qiqi asks: are you sleeping?", "talk"),
    ("Qiqi whispers to Yuzu: come to the beach", "talk"),
    ("Qiqi tells Yuzu to run", "talk"),
    ("Qiqi tells her little brother to go to bed", "talk"),
    ("Qiqi asks Yuzu to dance with her in the park", "talk"),
    ("Qiqi asks to go home", "talk"),
    ("Qiqi begged Yuzu to swim in the sea", "talk"),
    ("Qiqi says that she will dance at night", "talk"),
    ("Qiqi tells Yuzu that the train leaves at midnight", "talk"),
    ("Qiqi shouts at Yuzu that the bus is leaving", "shout"),
    ("Qiqi sings: dance with me in the garden", "sing"),
    ("Qiqi writes: meet me at the station", "write"),
    ("Aoi: I am home", "talk"),
    ("Aoi: are you there?", "talk"),
    ("Aoi: hello, let's swim", "talk"),
    ("Aoi: we should run to the station", "talk"),
])
def test_what_is_said_without_quotes_is_not_shown(text: str, motion: str) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.location, reading.time) == (motion, "", "")
    assert reading.warnings == []


def test_the_words_taken_out_are_the_ones_said() -> None:
    text = "Qiqi tells Yuzu to run, then waves"
    [(start, end)] = said_spans(text)
    assert text[start:end] == "run"
    assert without_speech("Qiqi says: let's go home") == ("Qiqi says:  . ", True)
    assert without_speech("Qiqi runs to the park") == ("Qiqi runs to the park", False)


def test_a_motion_after_the_sentence_said_is_read() -> None:
    reading = read("Qiqi says: it's late. She runs home")  # the sentence's end ends what is said
    assert (reading.motion.name, reading.location) == ("talk", "bedroom")
    assert reading.warnings == ["several motions named, shown as 'talk'; left out 'run' (a clip shows one motion)"]
    reading = read("Qiqi tells Yuzu to hurry, then sits on a bench in the park")  # what she does after telling
    assert (reading.motion.name, reading.location) == ("sit", "park")
    assert reading.warnings == ["several motions named, shown as 'sit'; left out 'talk' (a clip shows one motion)"]


@pytest.mark.parametrize(("text", "motion", "location", "time"), [
    ("Qiqi tells Yuzu to hurry in the park at night", "talk", "", ""),
    ("At night Qiqi says: let's go to the beach", "talk", "", "night"),
    ("In the park, Qiqi whispers: meet me at the station", "talk", "park", ""),
])
def test_what_is_said_ends_with_its_clause(text: str, motion: str, location: str, time: str) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.location, reading.time) == (motion, location, time)
    assert reading.warnings == []


@pytest.mark.parametrize(("text", "motion", "location", "time"), [
    ("Qiqi: runs to the park", "run", "park", ""),  # a name and what they do: no speech
    ("Qiqi says hello to Yuzu in the park", "wave", "park", ""),
    ("Qiqi asks Yuzu for directions to the station", "talk", "station", ""),
    ("Qiqi invites Yuzu to the park", "idle", "park", ""),
    ("Qiqi writes that letter in the library", "write", "library", ""),
    ("Qiqi thinks that over in the park at night", "think", "park", "night"),
    ("Qiqi wants to run to the beach", "run", "beach", ""),
    ("Qiqi promises to swim in the sea", "swim", "sea", ""),
    ("Qiqi talks to Yuzu at the station", "talk", "station", ""),
    ("Qiqi tells a story in the library at dusk", "talk", "library", "sunset"),
])
def test_ordinary_instructions_read_as_before(text: str, motion: str, location: str, time: str) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.location, reading.time) == (motion, location, time)


def test_a_motion_between_the_verb_and_its_to_is_no_speech() -> None:
    reading = read("Qiqi tells Yuzu and runs to the park")
    assert (reading.motion.name, reading.location) == ("talk", "park")
    assert reading.warnings == ["several motions named, shown as 'talk'; left out 'run' (a clip shows one motion)"]


def test_the_engine_draws_the_speaker_talking_where_they_are() -> None:
    engine = SketchEngine()
    home = predict(engine, "Qiqi says: let's go home", settings=SMALL)
    assert (home.conditioning["character"], home.conditioning["motion"], home.conditioning["location"]) == (
        "Qiqi", "talk", "town")
    assert home.warnings == ()
    line = predict(engine, "Aoi: I am home", settings=SMALL)
    assert (line.conditioning["character"], line.conditioning["motion"], line.conditioning["location"]) == (
        "Aoi", "talk", "town")
    assert line.warnings == ()
    told = predict(engine, "Qiqi tells Yuzu to sit on the bench", settings=SMALL)
    assert (told.conditioning["motion"], told.conditioning.get("seat", "")) == ("talk", "")
    assert told.warnings == ()
