"""A motion field that says only how ("Motion: quickly") draws the character idle and says
so (QA: `play -i "Character: Qiqi; Motion: quickly; Background: day town"` made an idle clip
at motion level 4 without a warning, while an empty motion field warned "no motion given")."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_instruction


@pytest.mark.parametrize(("motion", "shown", "level"), [
    ("quickly", "quickly", 4),
    ("gently gently", "gently gently", 1),
    ("Wildly!", "Wildly!", 5),
])
def test_an_adverb_without_a_motion_is_idle_with_a_warning(motion: str, shown: str, level: int) -> None:
    reading = read_instruction(parse_instruction(f"Character: Qiqi; Motion: {motion}; Background: day town."))
    assert reading.motion.name == "idle"
    assert reading.level == level  # the adverb still sets how energetic the turn is
    assert reading.warnings == [f"'{shown}' says how but names no motion, shown as 'idle'"]


@pytest.mark.parametrize("motion", ["quickly run", "run quickly", "nothing", "quickly nothing", "-"])
def test_a_motion_with_its_adverb_or_an_explicit_none_gets_no_such_warning(motion: str) -> None:
    reading = read_instruction(parse_instruction(f"Character: Qiqi; Motion: {motion}; Background: day town."))
    assert not any("names no motion" in warning for warning in reading.warnings), reading.warnings
