"""水たまりを飛び越える (jumps over a puddle) is a jump, as "jumps over a puddle" is: 飛 was read as
飛ぶ, a flight on the broom."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_turn


@pytest.mark.parametrize("text", [
    "Yuzuは水たまりを飛び越える", "Yuzuは水たまりを飛び越えた", "Yuzuは柵を跳び越える", "Yuzuは小川を飛び越して走る",
    "Yuzu jumps over a puddle",
])
def test_jumping_over_is_a_jump(text: str) -> None:
    reading = read_turn(parse_instruction(text), [], ["Yuzu"])
    assert reading.motion.name == "jump"
    assert not any("broom" in warning for warning in reading.warnings)


def test_flying_is_still_a_flight() -> None:
    assert read_turn(parse_instruction("Yuzuは空を飛ぶ"), [], ["Yuzu"]).motion.name == "fly on broomstick"
