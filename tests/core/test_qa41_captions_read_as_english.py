"""Captions of fields an author types every day read as English says them: a place with a
capital article, one sat on, one of the Arabic article; idioms without "the" (to school, in
front of); a manner after "is"; a motion not done; cast names typed in lower case in free text."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action

CAST = ("Qiqi", "Rose", "Yuzu")


@pytest.mark.parametrize(("text", "said"), [
    ("Character: Qiqi; Motion: wave; Background: The Park", "Qiqi waves in the park."),
    ("Character: Qiqi; Motion: wave; Background: The Louvre", "Qiqi waves in the Louvre."),
    ("Character: Qiqi; Motion: sit; Background: bench", "Qiqi sits on the bench."),
    ("Character: Qiqi; Motion: sit; Background: Sofa", "Qiqi sits on the sofa."),
    ("Character: Qiqi; Motion: wave; Background: in front of the school", "Qiqi waves in front of the school."),
    ("Character: Qiqi; Motion: wave; Background: الحديقة", "Qiqi waves in الحديقة."),
    ("Character: Qiqi; Motion: going to school", "Qiqi goes to school."),
    ("Character: Qiqi; Motion: walk to work; Time: morning", "Qiqi walks to work, in the morning."),
])
def test_places(text: str, said: str) -> None:
    assert describe_action(parse_instruction(text), cast=CAST) == said


@pytest.mark.parametrize(("text", "said"), [
    ("Character: Qiqi; Motion: is waving happily", "Qiqi is happily waving."),
    ("Character: Qiqi; Motion: don't move", "Qiqi doesn't move."),
    ("Character: Qiqi and Yuzu; Motion: don't move", "Qiqi and Yuzu don't move."),
    ("Character: Qiqi; Motion: not run", "Qiqi does not run."),
    ("Character: Qiqi; Motion: do not run; Background: park", "Qiqi does not run in the park."),
    ("Character: Qiqi; Motion: never give up", "Qiqi never gives up."),
    ("Character: Qiqi; Motion: do the splits; Adverb: gracefully", "Qiqi gracefully does the splits."),
])
def test_verbs(text: str, said: str) -> None:
    assert describe_action(parse_instruction(text), cast=CAST) == said


@pytest.mark.parametrize(("text", "said"), [
    ("qiqi waves at yuzu", "Qiqi waves at Yuzu."),
    ("Character: Qiqi; Motion: wave; yuzu laughs at qiqi's joke", "Qiqi waves. Yuzu laughs at Qiqi's joke."),
    ("qiqi smells the rose", "Qiqi smells the rose."),
    ("QIQI RUNS TO THE PARK", "QIQI RUNS TO THE PARK."),
])
def test_cast_names_in_free_text(text: str, said: str) -> None:
    assert describe_action(parse_instruction(text), cast=CAST) == said
