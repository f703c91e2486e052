"""The sentence read from an instruction (captions, subtitles, sheets) keeps "to" before a verb
as it is and conjugates a verb that follows an adverb or carries a comma (QA: "thinking about
what to the say to Yuzu", "tries to the jump", "walk,s")."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action


@pytest.mark.parametrize(("motion", "expected"), [
    ("slowly walk, thinking about what to say to Yuzu",
     "Qiqi slowly walks, thinking about what to say to Yuzu in the street, by day."),
    ("try to jump", "Qiqi tries to jump in the street, by day."),
    ("walk to say hello", "Qiqi walks to say hello in the street, by day."),
    ("walk, then jump", "Qiqi walks, then jumps in the street, by day."),
    ("walk to bakery", "Qiqi walks to the bakery in the street, by day."),  # a place after "to" still gets "the"
    ("sit on railing", "Qiqi sits on the railing in the street, by day."),
])
def test_verbs_after_to_and_after_an_adverb_read_right(motion: str, expected: str) -> None:
    instruction = parse_instruction(f"Character: Qiqi; Motion: {motion}; Background: day street.")
    assert describe_action(instruction) == expected
