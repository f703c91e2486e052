"""A sentence that puts its subject first with "it" ("It is Taro who runs", "It was Yuzu who
laughed") is the named character's turn: its "it" stands for no one. It was read as a
pronoun's turn, going on with the character of the turn before (or the cast's first)."""

from __future__ import annotations

import pytest

from studio.core.model import CastMember
from studio.core.tree import ONE, subject_pronoun
from studio.engines.sketch import SketchEngine

from ..sketch_helpers import SMALL, predict

CAST = (CastMember(id="qiqi", name="Qiqi"), CastMember(id="yuzu", name="Yuzu"), CastMember(id="taro", name="Taro"))
NAMES = [member.name for member in CAST]


@pytest.mark.parametrize(("text", "actor"), [
    ("It is Taro who runs", "Taro"), ("It was Yuzu who laughed", "Yuzu"),
    ("It's Yuzu that dances in the park", "Yuzu"), ("It is only Taro who stays behind and waves", "Taro"),
])
def test_the_one_named_acts(text: str, actor: str) -> None:
    assert subject_pronoun(text, NAMES) == ""
    take = predict(SketchEngine(), text, settings=SMALL, cast=CAST)
    assert take.conditioning["character"] == actor
    assert take.conditioning["companion"] == ""


@pytest.mark.parametrize("text", ["It runs after Yuzu", "It is hungry and eats with Yuzu"])
def test_an_it_that_acts_is_still_a_pronoun(text: str) -> None:
    assert subject_pronoun(text, NAMES) == ONE
