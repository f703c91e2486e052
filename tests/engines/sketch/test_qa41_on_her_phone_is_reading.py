"""Someone "on her phone" uses it: shown as reading, as a phone scrolled is, said. It was a talk,
with a friend made up to talk to. "On the phone", or on it with someone, stays a call."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_instruction

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize("text", [
    "Qiqi is on her phone", "Qiqi is on her phone again", "Qiqi was on his phone all night",
    "Qiqi is on her phone in the cafe",
])
def test_on_her_phone_is_read(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "read"
    assert "'phone' unknown, shown as 'read'" in reading.warnings


def test_no_friend_is_made_up_for_her_phone() -> None:
    take = predict(SketchEngine(), "Qiqi is on her phone", settings=SMALL)
    assert take.conditioning["motion"] == "read"
    assert take.conditioning["companion"] == ""


@pytest.mark.parametrize("text", ["Qiqi is on the phone", "Qiqi is on her phone with Yuzu"])
def test_on_the_phone_is_a_call(text: str) -> None:
    assert read_instruction(parse_instruction(text)).motion.name == "talk"
