"""'lay down' is understood, and so are its forms: 'lays down', 'laid down', 'laying down'."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.text import lemmatise
from studio.engines.sketch.understanding import read_instruction
from studio.engines.sketch.vocabulary import KNOWN_WORDS


@pytest.mark.parametrize("word", ["lay", "lays", "laid", "laying", "lying", "lies"])
def test_forms_of_lay_and_lie_have_one_lemma(word: str) -> None:
    assert lemmatise(word, KNOWN_WORDS) == "lie"


@pytest.mark.parametrize("text", [
    "Qiqi lay down",
    "Qiqi lays down",
    "Qiqi laid down",
    "Qiqi is laying down on the grass",
    "Character: Qiqi; Motion: lays down; Background: park",
])
def test_every_form_of_lay_down_is_lie_down(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "lie down"
    assert reading.warnings == []
