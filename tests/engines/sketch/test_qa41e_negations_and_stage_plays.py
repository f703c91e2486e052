"""What one is too tired to do is not done ("is too tired to walk" walked), nor is what is done
"instead of" ("Instead of running, Qiqi walks" ran); "nods off" dozes (a nod), "shakes hands"
greets (a shiver), a play on a stage is no ball play ("rehearses for the school play"), and a
snack gone for ("sneaks into the kitchen for a midnight snack") is no meal eaten besides."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_instruction


@pytest.mark.parametrize("text", ["Qiqi is too tired to walk", "Qiqi is too scared to jump"])
def test_too_tired_to_is_not_done(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "idle"
    assert any("is a motion not done" in w for w in reading.warnings)


@pytest.mark.parametrize(("text", "motion"), [
    ("Instead of running, Qiqi walks", "walk"), ("Qiqi walks instead of running", "walk"),
    ("Qiqi nods off during the lesson", "sleep"), ("Qiqi shakes hands with the principal", "wave"),
    ("Qiqi sneaks into the kitchen for a midnight snack", "sneak"),
])
def test_read_as_meant_with_nothing_left_out(text: str, motion: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert (reading.motion.name, reading.warnings) == (motion, [])


@pytest.mark.parametrize("text", [
    "Qiqi practices her lines for the play", "Qiqi rehearses for the school play in the gym",
])
def test_a_stage_play_is_no_ball_play(text: str) -> None:
    assert read_instruction(parse_instruction(text)).motion.name != "play"


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi nods", "nod"), ("Qiqi shakes with cold", "shiver"), ("Qiqi and Yuzu play in the park", "play"),
    ("Qiqi wants to play with Yuzu", "play"), ("Qiqi eats a snack", "eat"), ("Qiqi is very tired and walks", "walk"),
])
def test_the_same_words_said_plainly_stay(text: str, motion: str) -> None:
    assert read_instruction(parse_instruction(text)).motion.name == motion
