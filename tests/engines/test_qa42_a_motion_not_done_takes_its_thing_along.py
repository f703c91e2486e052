"""A motion said not to be done in Japanese or Korean is not done with the thing it is done to,
written before the verb (本を読まない, 책을 읽지 않는다, "does not read a book"): the thing, which
names a motion itself (a book is read, tea drunk, a song sung), was drawn as that motion."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_turn

NAMES = ["Taro", "Yuzu"]


@pytest.mark.parametrize("text", [
    "Taro does not read a book", "Taroは図書館で本を読まない", "Yuzuはお茶を飲まない", "Yuzuは歌を歌わない",
    "Taro는 책을 읽지 않는다", "Taro는 책을 안 읽는다",
])
def test_the_thing_is_not_done_either(text: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == "idle"
    assert any("is a motion not done" in warning for warning in reading.warnings)


@pytest.mark.parametrize(("text", "motion"), [
    ("Taroは本を読む", "read"), ("Taro는 책을 읽는다", "read"), ("Yuzuはお茶を飲む", "drink"),
    ("Taroは本を読まないで、走る", "run"),
])
def test_done_it_is_drawn(text: str, motion: str) -> None:
    assert read_turn(parse_instruction(text), [], NAMES).motion.name == motion


def test_the_korean_warning_quotes_the_verb_as_written() -> None:
    reading = read_turn(parse_instruction("Yuzu는 기타를 치지 않는다"), [], NAMES)
    assert "'치지 않는다' is a motion not done, shown as 'idle'" in reading.warnings
