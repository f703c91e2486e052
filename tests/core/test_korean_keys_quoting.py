"""A refused turn quotes a Korean field as the author wrote it: with the plain colon Korean is
typed with ('동작: 달린다'), not the full-width one a Japanese or Chinese field is quoted with
('動作：走る'). Before, every field name of wide letters was quoted with '：'."""

from __future__ import annotations

import pytest

from studio.core.instruction import InstructionError, validate_instruction_text


def _refusal(text: str) -> str:
    with pytest.raises(InstructionError) as caught:
        validate_instruction_text(text)
    return caught.value.message


@pytest.mark.parametrize(("text", "quoted"), [
    ("동작: 달린다; 동작: 걷는다", "('동작: 달린다' and '동작: 걷는다')"),
    ("캐릭터: 민수; 인물: 지영", "('캐릭터: 민수' and '인물: 지영')"),
    ("Motion: run; 움직임: 걷다", "('Motion: run' and '움직임: 걷다')"),
    ("동작: 달린다; 動作：走る", "('동작: 달린다' and '動作：走る')"),
    ("动作：跑步；동작: 달린다", "('动作：跑步' and '동작: 달린다')"),
])
def test_a_korean_field_given_twice_is_quoted_with_a_plain_colon(text: str, quoted: str) -> None:
    message = _refusal(text)
    assert quoted in message, message
    assert "동작：" not in message and "캐릭터：" not in message


def test_two_times_of_day_in_korean_fields_are_quoted_as_written() -> None:
    message = _refusal("배경: night park; 시간: day")
    assert "'night' in '배경: night park' and '시간: day'" in message, message


@pytest.mark.parametrize(("text", "quoted"), [
    ("人物：Aoi；人物：Yuzu", "('人物：Aoi' and '人物：Yuzu')"),
    ("Ｍｏｔｉｏｎ：run；Motion: walk", "('Ｍｏｔｉｏｎ：run' and 'Motion: walk')"),
])
def test_japanese_chinese_and_full_width_keys_keep_their_full_width_colon(text: str, quoted: str) -> None:
    assert quoted in _refusal(text)
