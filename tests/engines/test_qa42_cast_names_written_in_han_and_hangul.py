"""A cast member whose name is written in the Latin alphabet is matched where a turn writes the
name in Han characters or Hangul (柚子 or 유즈 for Yuzu, 琪琪 or 키키 for Qiqi), as kana spellings
already were (ゆず): the turn was drawn with the branch's character. A name that reads as no one
of the cast, or as two of them, is left as it was."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.core.state import CharacterState
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.han_hangul_names import cast_names_in_han_and_hangul

from .sketch_helpers import predict

CAST = tuple(CastMember(id=f"c{i}", name=name) for i, name in enumerate(("Aoi", "Yuzu", "Qiqi", "Taro")))


@pytest.mark.parametrize(("text", "who"), [
    ("柚子在公园跑步", "Yuzu"), ("柚子が公園で走る", "Yuzu"), ("유즈가 공원에서 달린다", "Yuzu"),
    ("ゆずが走る", "Yuzu"),
    ("琪琪在跑步", "Qiqi"), ("키키가 웃는다", "Qiqi"), ("太郎は踊る", "Taro"), ("타로가 춤춘다", "Taro"),
])
def test_the_name_is_the_cast_member(engine: SketchEngine, text: str, who: str) -> None:
    pred = predict(engine, text, cast=CAST, state=CharacterState())
    assert pred.conditioning["character"] == who
    assert not any("not in the cast" in warning for warning in pred.warnings)


def test_a_friend_written_in_hanzi_is_drawn(engine: SketchEngine) -> None:
    pred = predict(engine, "琪琪和柚子一起回家", cast=CAST)
    assert (pred.conditioning["character"], pred.conditioning["companion"]) == ("Qiqi", "Yuzu")


@pytest.mark.parametrize("text", ["小明在跑步", "민수가 달린다", "花子が走る"])
def test_a_name_of_no_one_in_the_cast_is_kept(text: str) -> None:
    instr = parse_instruction(text)
    assert cast_names_in_han_and_hangul(instr, [m.name for m in CAST]) is instr


def test_a_spelling_two_names_share_names_no_one() -> None:
    instr = parse_instruction("키키가 달린다")  # Kiki and Qiqi are both written 키키
    assert cast_names_in_han_and_hangul(instr, ["Kiki", "Qiqi"]) is instr
    assert "Qiqi" in cast_names_in_han_and_hangul(instr, ["Qiqi"]).free_text
