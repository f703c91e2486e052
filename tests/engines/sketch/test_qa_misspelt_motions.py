"""A motion misspelt by one letter in free text is drawn, with a warning naming the word:
"Qiqi danses in the park" dances (it stood idle, "no motion found"). Only a word where a verb
goes is read so: a word one letter from a motion elsewhere is another word ("feels great" is
no greeting, "makes curry" no carrying)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_instruction

from ..sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize(("text", "word", "motion"), [
    ("Qiqi danses in the park", "danses", "dance"),
    ("Qiqi dnace in the park", "dnace", "dance"),
    ("Qiqi is dancin", "dancin", "dance"),
    ("Qiqi slepps", "slepps", "sleep"),
    ("she streches slowly", "streches", "stretch"),
    ("Qiqi is sleeeping at night", "sleeeping", "sleep"),
    ("Qiqi slowly wispers", "wispers", "talk"),
    ("QIQI DANSES", "DANSES", "dance"),
    ("QIQI IS DANCIN", "DANCIN", "dance"),
    ("Qiqi and Yuzu danse", "danse", "dance"),
])
def test_a_misspelt_motion_is_drawn_and_said(text: str, word: str, motion: str) -> None:
    reading = read(text)
    assert reading.motion.name == motion
    assert reading.warnings == [f"'{word}' unknown, shown as '{motion}'"]


@pytest.mark.parametrize("text", [
    "Qiqi is short", "Qiqi feels great", "Qiqi makes curry", "Qiqi wears a white dress", "Qiqi is ready",
    "Qiqi leans on the wall", "Qiqi meets Shaun", "Qiqi is tired", "QIQI FEELS GREAT", "QIQI WEARS A WHITE DRESS",
    "The white dress",
])
def test_other_words_one_letter_from_a_motion_are_not_motions(text: str) -> None:
    reading = read(text)
    assert reading.motion.name in ("idle", "meet people")
    assert not any("unknown, shown as" in w for w in reading.warnings), reading.warnings


def test_a_known_word_is_read_as_before() -> None:
    reading = read("Qiqi is runing in the park")
    assert (reading.motion.name, reading.location, reading.warnings) == ("run", "park", [])


def test_the_misspelt_motion_reaches_the_take_and_its_deltas() -> None:
    engine = SketchEngine()
    misspelt = predict(engine, "Qiqi danses in the park", seed=3, settings=SMALL)
    right = predict(engine, "Qiqi dances in the park", seed=3, settings=SMALL)
    assert misspelt.conditioning["motion"] == "dance"
    assert misspelt.deltas == right.deltas
    assert "'danses' unknown, shown as 'dance'" in misspelt.warnings
