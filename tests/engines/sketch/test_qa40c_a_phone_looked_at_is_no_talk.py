"""A phone looked at ("scrolls her phone", "checks her phone") is shown as reading, said: it was
a talk, with social gained and a friend made up to talk to. A phone talked on stays a talk."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_instruction

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize("text", [
    "Qiqi scrolls her phone on the sofa", "Qiqi checks her phone", "Qiqi is scrolling on her phone",
])
def test_a_phone_looked_at_is_read(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "read"
    assert "'phone' unknown, shown as 'read'" in reading.warnings


def test_no_friend_nor_social_for_scrolling() -> None:
    take = predict(SketchEngine(), "Qiqi scrolls her phone on the sofa", settings=SMALL)
    assert take.conditioning["motion"] == "read"
    assert take.conditioning["companion"] == ""
    assert take.deltas.social <= 0


@pytest.mark.parametrize("text", ["Qiqi calls Yuzu on the phone", "Qiqi talks on her phone"])
def test_a_phone_talked_on_is_a_talk(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "talk"
