"""A Background field with nothing a place can be read from ("🏖️", "???", "123") is said to be
no place of this world, as "Background: Mordor" is: it was drawn at the branch's place without a
word, while a Character field of an emoji at least said the name was not in the cast."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_turn


@pytest.mark.parametrize("background", ["🏖️", "???", "123", "🌊 🌊"])
def test_a_background_with_no_words_is_named_as_no_place(background: str) -> None:
    reading = read_turn(parse_instruction(f"Character: Qiqi; Motion: run; Background: {background}"), (), ("Qiqi",))
    assert reading.unknown_places == (background,)
    assert not reading.location_given


@pytest.mark.parametrize("background", ["park", "day park", "night", "the park at night"])
def test_a_background_read_as_a_place_or_a_time_names_none(background: str) -> None:
    reading = read_turn(parse_instruction(f"Character: Qiqi; Motion: run; Background: {background}"), (), ("Qiqi",))
    assert reading.unknown_places == ()
