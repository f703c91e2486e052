"""설거지를 한다 (does the washing up) is no motion of the world, said ("no motion found"), as
"washes the dishes" is: 설 of 설거지 was read as a form of 서다 (stand), and the turn was drawn
standing idle with no warning at all."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_turn


@pytest.mark.parametrize("text", ["Yuzu는 설거지를 한다", "Yuzu washes the dishes"])
def test_the_washing_up_is_said_not_found(text: str) -> None:
    reading = read_turn(parse_instruction(text), [], ["Yuzu"])
    assert reading.motion.name == "idle"
    assert reading.warnings == [f"no motion found in '{text}', shown as 'idle'"]


def test_standing_is_still_read() -> None:
    reading = read_turn(parse_instruction("Yuzu는 공원에 서 있다"), [], ["Yuzu"])
    assert (reading.motion.name, reading.warnings) == ("idle", [])
