"""An adverb in a part of the instruction that is negated does not set how the motion is done:
"Qiqi doesn't run quickly, she walks slowly" is a slow walk (it was a walk at level 4)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import Reading, read_instruction


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


@pytest.mark.parametrize(("text", "motion", "adverb", "level"), [
    ("Qiqi doesn't run quickly, she walks slowly", "walk", "slowly", 1),
    ("Qiqi doesn't walk slowly, she runs", "run", "", 4),
    ("Qiqi walks, not quickly", "walk", "", 2),
    ("Qiqi walks not very fast", "walk", "", 2),
    ("Qiqi runs, but not fast", "run", "", 4),
    ("Qiqi never runs quickly", "idle", "", 1),
])
def test_a_negated_adverb_is_not_the_level(text: str, motion: str, adverb: str, level: int) -> None:
    reading = read(text)
    assert (reading.motion.name, reading.adverb, reading.level) == (motion, adverb, level)


@pytest.mark.parametrize(("text", "adverb", "level"), [
    ("Qiqi sprints very fast", "fast", 5),
    ("Qiqi slowly waves", "slowly", 1),
    ("Qiqi runs quickly without Yuzu", "quickly", 4),
    ("Qiqi never stops running quickly", "quickly", 4),
    ("Character: Qiqi; Motion: very gently sit; Background: park", "gently", 1),
])
def test_an_adverb_that_is_not_negated_still_counts(text: str, adverb: str, level: int) -> None:
    reading = read(text)
    assert (reading.adverb, reading.level) == (adverb, level)
