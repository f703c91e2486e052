"""Readable sentences from instructions: what captions show when a turn has no dialogue."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action, third_person


@pytest.mark.parametrize(("text", "sentence"), [
    ("Character: Qiqi; Motion: gently sit on railing; Background: day town.",
     "Qiqi gently sits on the railing in the town, by day."),
    ("Character: Qiqi; Motion: quickly fly on broomstick; Background: day sky.",
     "Qiqi quickly flies on the broomstick in the sky, by day."),
    ("Character: Qiqi; Motion: gently lie down; Background: night bedroom.",
     "Qiqi gently lies down in the bedroom, at night."),
    ("character: Yuzu; motion: watch the sea; background: beach; time: sunset",
     "Yuzu watches the sea on the beach, at sunset."),
    ("Qiqi eats bread slowly in the bakery at night", "Qiqi eats bread slowly in the bakery at night."),
    ("Character: Mei; Background: park", "Mei is in the park."),
    ("Character: Mei; Motion: wave to Qiqi; Background: day street; she smiles",
     "Mei waves to Qiqi in the street, by day. She smiles."),
    # joined verbs are conjugated too; a noun after "and" is left alone
    ("Character: Qiqi; Motion: sit and read a book; Background: night library.",
     "Qiqi sits and reads a book in the library, at night."),
    ("Character: Kai; Motion: stand up, then stretch and yawn; Background: bedroom",
     "Kai stands up, then stretches and yawns in the bedroom."),
    ("Character: Yuzu; Motion: eat bread and butter; Background: bakery", "Yuzu eats bread and butter in the bakery."),
    ("Character: Yuzu; Motion: hold a cup and a book", "Yuzu holds a cup and a book."),
    ("Character: Kai; Motion: drink tea and water", "Kai drinks tea and water."),
])
def test_sentences_read_like_prose(text: str, sentence: str) -> None:
    result = describe_action(parse_instruction(text))
    assert result == sentence
    assert ":" not in result and ";" not in result


def test_a_turn_without_a_character_borrows_the_acting_one() -> None:
    assert describe_action(parse_instruction("motion: jump; background: beach"), "Qiqi") == "Qiqi jumps on the beach."
    assert describe_action(parse_instruction("motion: jump; background: beach")) == "Jump on the beach."
    assert describe_action(parse_instruction("")) == ""


@pytest.mark.parametrize(("verb", "third"), [("sit", "sits"), ("fly", "flies"), ("play", "plays"),
                                             ("watch", "watches"), ("go", "goes"), ("have", "has"), ("kiss", "kisses"),
                                             ("手を振る", "手を振る"), ("跳ぶ", "跳ぶ"), ("", "")])
def test_third_person(verb: str, third: str) -> None:
    assert third_person(verb) == third
