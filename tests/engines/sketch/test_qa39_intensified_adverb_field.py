"""An Adverb field with "very", "really" or "extremely" before its adverb is read as free text
reads it: "Adverb: very slowly" runs at level 1, as "runs very slowly" does (it was refused:
"'very slowly' unknown, shown at 'run''s natural level 4", with a doubled quote)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_turn

from ..sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_turn(parse_instruction(text))


@pytest.mark.parametrize(("adverb", "motion", "free_text"), [
    ("very slowly", "run", "Qiqi runs very slowly"),
    ("really quickly", "run", "Qiqi runs really quickly"),
    ("extremely slowly", "walk", "Qiqi walks extremely slowly"),
    ("very gently", "dance", "Qiqi dances very gently"),
])
def test_an_intensified_adverb_field_reads_as_free_text(adverb: str, motion: str, free_text: str) -> None:
    field = read(f"Motion: {motion}\nAdverb: {adverb}")
    free = read(free_text)
    assert field.warnings == [] and free.warnings == []
    assert field.level == free.level
    assert field.adverb == free.adverb == adverb.split()[-1]


def test_the_intensifier_moves_the_level_a_step() -> None:
    assert read("Motion: run\nAdverb: very slowly").level == 1
    assert read("Motion: run\nAdverb: really quickly").level == 5
    assert read("Motion: run\nAdverb: quickly").level == 4


def test_the_level_reaches_the_take() -> None:
    take = predict(SketchEngine(), "Motion: run\nAdverb: very slowly", seed=2, settings=SMALL)
    assert take.motion_level == 1


def test_an_unknown_adverb_is_said_without_a_doubled_quote() -> None:
    reading = read("Motion: run\nAdverb: zigzaggy")
    assert reading.level == 4
    assert reading.warnings == ["'zigzaggy' unknown, shown at the natural level of 'run' (4)"]
    assert "''" not in reading.warnings[0]
