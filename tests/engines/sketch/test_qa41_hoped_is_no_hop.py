"""A verb ending in "e" whose forms, the "e" dropped, spell a shorter verb's ("hoped", "hoping",
"hopes" / hop; "moped" / mop) is read as itself: "Qiqi hoped for sun" was a jump, "she moped
in her room" sweeping. A short verb doubles its last letter ("hopped", "mopped"): those stay."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.text import lemmatise
from studio.engines.sketch.understanding import KNOWN_WORDS, read_instruction

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize(("word", "verb"), [
    ("hoped", "hope"), ("hoping", "hope"), ("hopes", "hope"), ("moped", "mope"), ("moping", "mope"),
    ("taped", "tape"), ("spared", "spare"), ("bared", "bare"), ("sited", "site"),
])
def test_the_form_of_an_e_verb_is_its_own(word: str, verb: str) -> None:
    assert lemmatise(word, KNOWN_WORDS) == verb


@pytest.mark.parametrize(("word", "verb"), [
    ("hopped", "hop"), ("hopping", "hop"), ("mopped", "mop"), ("mops", "mop"), ("runs", "run"),
    ("ran", "run"), ("sitting", "sit"), ("dined", "dine"), ("stared", "stare"),
])
def test_the_short_verbs_stay(word: str, verb: str) -> None:
    assert lemmatise(word, KNOWN_WORDS) == verb


@pytest.mark.parametrize("text", [
    "Qiqi hoped for sun", "she hoped it would work", "Qiqi hopes for a sunny day", "Qiqi is hoping for sun",
])
def test_hoping_is_thinking_said(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "think"
    assert reading.warnings == ["'hope' unknown, shown as 'think'"]


def test_moping_is_sulking_not_sweeping() -> None:
    reading = read_instruction(parse_instruction("Qiqi moped in her room"))
    assert reading.motion.name == "sulk"
    assert reading.warnings == ["'mope' unknown, shown as 'sulk'"]


def test_a_word_of_an_e_verb_is_no_misspelt_motion() -> None:
    reading = read_instruction(parse_instruction("Qiqi spared him"))
    assert reading.motion.name == "idle"
    assert not any("look around" in w for w in reading.warnings)


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi hopped in the park", "jump"), ("Qiqi is hopping around", "jump"), ("Qiqi mopped the floor", "sweep"),
])
def test_the_doubled_forms_are_the_short_verbs(text: str, motion: str) -> None:
    assert read_instruction(parse_instruction(text)).motion.name == motion


def test_the_engine_draws_no_jump_for_a_hope() -> None:
    take = predict(SketchEngine(), "Qiqi hoped for sun", settings=SMALL)
    assert take.conditioning["motion"] == "think"
