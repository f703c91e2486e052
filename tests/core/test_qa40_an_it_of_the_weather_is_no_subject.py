"""An "it" that stands for the weather, the time or the day is no pronoun subject: "It is
raining. Qiqi walks to school" as the story's first turn was warned about as a turn whose
subject is a pronoun, though Qiqi acts; "It runs after Yuzu" still has one."""

from __future__ import annotations

import pytest

from studio.core.tree import subject_pronoun

from .cast_story import add_turn, cast_story

CAST = ["Qiqi", "Yuzu", "Aoi"]


@pytest.mark.parametrize("text", [
    "It is raining. Qiqi walks to school", "It was a cold night. Qiqi runs home", "It is late, Qiqi sleeps",
    "It's snowing, Yuzu waves", "It is getting dark. Aoi sits on a bench", "It is time to go. Qiqi waves",
])
def test_the_weathers_it_is_no_subject(text: str) -> None:
    assert subject_pronoun(text.replace("It's", "It is"), CAST) == ""
    document = cast_story()
    assert add_turn(document, "root", "n0", text) == ""


@pytest.mark.parametrize("text", ["It runs after Yuzu", "She walks in the park", "It is tired and sits down"])
def test_an_it_that_acts_is_still_a_subject(text: str) -> None:
    assert subject_pronoun(text, CAST) == "one"
