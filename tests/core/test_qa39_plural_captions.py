"""A turn of several characters is captioned with its verb agreeing with them: "Qiqi and Yuzu
dances in the park." read wrong to every author who wrote two names."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action, several_characters


@pytest.mark.parametrize(("text", "caption"), [
    ("Character: Qiqi and Yuzu; Motion: dance; Background: park", "Qiqi and Yuzu dance in the park."),
    ("Character: Qiqi, Yuzu & Aoi; Motion: a walk; Background: park", "Qiqi, Yuzu & Aoi take a walk in the park."),
    ("Character: Qiqi and Yuzu; Motion: an elegant dance", "Qiqi and Yuzu do an elegant dance."),
    ("Character: Qiqi and Yuzu; Motion: sit and read a book", "Qiqi and Yuzu sit and read a book."),
    ("Character: Qiqi and Yuzu; Motion: 3 laps of running", "Qiqi and Yuzu run 3 laps."),
    ("Character: Qiqi and Yuzu; Background: park", "Qiqi and Yuzu are in the park."),
    # one character: as before
    ("Character: Qiqi; Motion: dance; Background: park", "Qiqi dances in the park."),
    ("Character: Qiqi; Motion: sit and read a book", "Qiqi sits and reads a book."),
    ("Character: Qiqi; Background: park", "Qiqi is in the park."),
    ("Character: Andrea; Motion: wave", "Andrea waves."),  # "and" inside a name joins nothing
])
def test_the_verb_agrees_with_the_characters(text: str, caption: str) -> None:
    assert describe_action(parse_instruction(text)) == caption


@pytest.mark.parametrize(("who", "several"), [
    ("Qiqi and Yuzu", True), ("Qiqi, Yuzu", True), ("Qiqi & Yuzu", True), ("QIQI AND YUZU", True),
    ("Qiqi", False), ("Andrea", False), ("Sandy", False), ("", False), ("Qiqi,", False),
])
def test_several_characters_are_names_joined_in_english(who: str, several: bool) -> None:
    assert several_characters(who) is several
