"""A motion field that says "no motion" is idle; one we can't read at all says so."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_instruction


@pytest.mark.parametrize("motion", ["nothing", "none", "not", "no", "don't", "never", "Nothing!"])
def test_a_motion_field_saying_none_is_idle_not_the_nearest_word(motion: str) -> None:
    # before: 'nothing' was drawn as 'think', 'none' and 'not' as 'write', "don't" as 'point'
    reading = read_instruction(parse_instruction(f"Character: Qiqi; Motion: {motion}; Background: town"))
    assert reading.motion.name == "idle"
    assert reading.warnings == []


@pytest.mark.parametrize("motion", ["💃", "走る"])
def test_a_motion_field_of_unreadable_words_warns(motion: str) -> None:
    # before: an emoji alone was drawn as 'idle' without a word
    reading = read_instruction(parse_instruction(f"Character: Qiqi; Motion: {motion}"))
    assert reading.motion.name == "idle"
    assert reading.warnings == [f"'{motion}' unknown, shown as 'idle'"]


def test_a_motion_field_of_punctuation_is_no_request() -> None:
    assert read_instruction(parse_instruction("Character: Qiqi; Motion: -")).warnings == []
