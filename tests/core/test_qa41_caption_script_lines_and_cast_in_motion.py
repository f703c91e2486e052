"""A caption keeps the lines of a script its turn holds beside a motion, and a cast member's
name in the motion is spelled as the cast spells it, whatever case it was typed in."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action

CAST = ("Aoi", "Qiqi", "Rose", "Taro", "Yuzu")


def caption(text: str) -> str:
    return describe_action(parse_instruction(text), cast=CAST)


def test_a_script_line_beside_a_motion_is_said_after_the_sentence() -> None:
    assert caption('Character: Qiqi; Motion: wave; Yuzu: "Wait for me!"') == 'Qiqi waves. Yuzu: "Wait for me!"'
    assert caption('Character: Qiqi; Background: park; Yuzu: "Hi!"') == 'Qiqi is in the park. Yuzu: "Hi!"'


def test_a_script_line_alone_is_said_once() -> None:
    assert caption('Qiqi: "Let\'s go to the beach!"') == 'Qiqi: "Let\'s go to the beach!"'


@pytest.mark.parametrize(("text", "said"), [
    ("Character: YUZU; Motion: WAVE TO QIQI; Background: BEACH", "Yuzu waves to Qiqi on the beach."),
    ("Character: Yuzu; Motion: hug qiqi, then run", "Yuzu hugs Qiqi, then runs."),
    ("Character: Qiqi; Motion: wave to \"TARO\"", 'Qiqi waves to "Taro".'),
])
def test_a_cast_name_in_the_motion_is_spelled_as_the_cast_spells_it(text: str, said: str) -> None:
    assert caption(text) == said


def test_a_cast_name_after_an_article_is_a_thing() -> None:
    assert caption("Character: Qiqi; Motion: smell the rose") == "Qiqi smells the rose."
