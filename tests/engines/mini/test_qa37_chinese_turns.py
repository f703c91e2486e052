"""The mini reads a turn written in Chinese in the English words the sketch engine reads it in,
as it reads a Japanese one: the LM never learnt a Chinese word."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.mini.completion import english_turn


@pytest.mark.parametrize(("text", "read"), [
    ("角色：小明；动作：跑步；背景：公园；时间：晚上", "Character: 小明; Motion: run; Background: night park."),
    ("角色：小明；動作：揮手；背景：公園", "Character: 小明; Motion: wave hand; Background: park."),
    ("角色：小明；动作：坐在长椅上", "Character: 小明; Motion: sit bench."),
])
def test_a_chinese_turn_is_read_in_english_words(text: str, read: str) -> None:
    assert english_turn(parse_instruction(text)).raw == read


def test_english_turns_are_read_as_they_are() -> None:
    turn = parse_instruction("Character: Qiqi; Motion: run; Background: park.")
    assert english_turn(turn) is turn
