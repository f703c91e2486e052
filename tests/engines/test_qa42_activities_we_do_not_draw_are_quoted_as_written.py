"""A Japanese, Chinese or Korean word for an activity the world has no motion for is quoted in
the warning as the author wrote it (電話する: "'電話' unknown, shown as 'talk'"), not in the
English word it was read in ('phone'). Juggling and skating (ジャグリング, スケート, 滑冰, 저글링,
스케이트) are read as "juggles" and "skates" are, with such a warning: they were not read at all."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_turn

NAMES = ["Yuzu"]


@pytest.mark.parametrize(("text", "written", "motion"), [
    ("Yuzuは電話する", "電話", "talk"), ("動作：電話する", "電話する", "talk"),
    ("Yuzuはジャグリングする", "ジャグリング", "wave"), ("Yuzuは公園でスケートをする", "スケート", "run"),
    ("Yuzu在滑冰", "滑冰", "run"),
    ("Yuzu는 저글링을 한다", "저글링", "wave"), ("Yuzu는 스케이트를 탄다", "스케이트", "run"),
])
def test_quoted_as_written(text: str, written: str, motion: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == motion
    assert f"'{written}' unknown, shown as '{motion}'" in reading.warnings


@pytest.mark.parametrize(("text", "word", "motion"), [
    ("Yuzu phones her mother", "phone", "talk"), ("Yuzu juggles", "juggle", "wave"), ("Yuzu skates", "skate", "run"),
])
def test_english_is_quoted_as_before(text: str, word: str, motion: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == motion
    assert f"'{word}' unknown, shown as '{motion}'" in reading.warnings
