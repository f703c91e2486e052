"""An instruction refused says where and what as the author wrote it: a position counted in
characters as the author sees them, a Japanese field quoted with its own colon."""

from __future__ import annotations

import pytest

from studio.core.instruction import InstructionError, validate_instruction_text


def _refusal(text: str) -> str:
    with pytest.raises(InstructionError) as caught:
        validate_instruction_text(text)
    return caught.value.message


@pytest.mark.parametrize(("text", "where"), [
    ("Qiqi runs\tfast", 10),
    ("👍🏽👍🏽 runs\tfast", 8),  # two thumbs with skin tones: two characters, four code points
    ("👨‍👩‍👧 waves\x07", 8),  # a family joined by joiners is one character
    ("美咲が走る\u2028そして", 6),
    ("Ame\u0301lie runs\x0b", 12),  # an accent typed as its own mark belongs to its letter
])
def test_a_position_is_counted_as_the_author_counts(text: str, where: int) -> None:
    assert f"at character {where}." in _refusal(text)


@pytest.mark.parametrize(("text", "quoted"), [
    ("人物：Aoi；人物：Yuzu", "('人物：Aoi' and '人物：Yuzu')"),
    ("Character: Aoi; 人物：Yuzu", "('Character: Aoi' and '人物：Yuzu')"),
    ("動作：走る；Motion: walk", "('動作：走る' and 'Motion: walk')"),
])
def test_a_field_given_twice_is_quoted_with_its_own_colon(text: str, quoted: str) -> None:
    assert quoted in _refusal(text)


def test_two_times_of_day_are_quoted_as_written() -> None:
    message = _refusal("Background: night park; 時間帯：day")
    assert "'Background: night park' and '時間帯：day'" in message, message
