"""A cast name written in kana is the cast member: タロウ, タロー and たろう name Taro (a name of
the cast written in the Latin alphabet), たろう names タロウ (a name of the cast in katakana).
They were read as no one: the turn went to the cast's first member. A spelling two names share,
and kana inside another word (きたろう), name no one."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.kana_names import kana_spellings, katakana_spellings, with_names_as_cast_writes_them

from ..sketch_helpers import SMALL, predict


def _cast(*names: str) -> tuple[CastMember, ...]:
    return tuple(CastMember(id=f"c{i}", name=name) for i, name in enumerate(names))


@pytest.mark.parametrize(("name", "spellings"), [
    ("Taro", {"タロ", "タロウ", "タロー"}), ("Yuuki", {"ユウキ", "ユーキ"}), ("Kenta", {"ケンタ"}),
    ("Shota", {"ショタ", "ショウタ", "ショータ"}), ("Hattori", {"ハットリ"}), ("Tarō", {"タロウ", "タロー"}),
    ("Sakura", {"サクラ"}), ("Jun'ichi", {"ジュンイチ"}), ("Chie", {"チエ"}),
])
def test_romanized_names_in_katakana(name: str, spellings: set[str]) -> None:
    assert spellings <= katakana_spellings(name)


@pytest.mark.parametrize("name", ["Qiqi", "Xavier", "Anna Lee", "Lily", ""])
def test_names_that_are_no_romanization_have_no_spelling(name: str) -> None:
    assert katakana_spellings(name) == frozenset()


def test_a_spelling_two_names_share_names_no_one() -> None:
    spellings = kana_spellings(["Yuki", "Yuuki"])
    assert "ユウキ" not in spellings and "ゆうき" not in spellings
    assert spellings["ユキ"] == "Yuki"


@pytest.mark.parametrize(("text", "read"), [
    ("タロウが走る", " Taro が走る"), ("公園でたろうが走る", "公園で Taro が走る"),
    ("きたろうが走る", "きたろうが走る"), ("タロウイチが走る", "タロウイチが走る"),
    ("ゆずとたろうが歩く", " Yuzu と Taro が歩く"),
])
def test_where_a_spelling_stands_as_a_name(text: str, read: str) -> None:
    assert with_names_as_cast_writes_them(text, kana_spellings(["Taro", "Yuzu"])) == read


@pytest.mark.parametrize(("text", "actor"), [
    ("タロウが公園で走る", "Taro"), ("たろうが公園で走る", "Taro"), ("タローは笑う", "Taro"),
    ("Character: タロウ\nMotion: 走る", "Taro"), ("公園でたろうが走る", "Taro"),
])
def test_the_engine_draws_the_cast_member(text: str, actor: str) -> None:
    take = predict(SketchEngine(), text, settings=SMALL, cast=_cast("Qiqi", "Yuzu", "Taro"))
    assert take.conditioning["character"] == actor
    assert not any("not in the cast" in w for w in take.warnings)


def test_a_katakana_name_of_the_cast_written_in_hiragana() -> None:
    take = predict(SketchEngine(), "たろうが公園で走る", settings=SMALL, cast=_cast("ユズ", "タロウ"))
    assert (take.conditioning["character"], take.conditioning["scene"]) == ("タロウ", "park")


def test_both_named_in_kana_are_drawn() -> None:
    take = predict(SketchEngine(), "タロウとユズが話す", settings=SMALL, cast=_cast("Qiqi", "Yuzu", "Taro"))
    assert (take.conditioning["character"], take.conditioning["companion"]) == ("Taro", "Yuzu")


def test_a_latin_name_written_against_kana_is_the_friend() -> None:
    take = predict(SketchEngine(), "TaroとYuzuが話す", settings=SMALL, cast=_cast("Qiqi", "Yuzu", "Taro"))
    assert (take.conditioning["character"], take.conditioning["companion"]) == ("Taro", "Yuzu")


def test_the_reading_of_the_turn_is_unchanged_besides_the_name() -> None:
    take = predict(SketchEngine(), "たろうが夜の公園でゆっくり歩く", settings=SMALL, cast=_cast("Qiqi", "Taro"))
    assert (take.conditioning["motion"], take.conditioning["scene"]) == ("walk", "park")
    assert parse_instruction("たろうが夜の公園でゆっくり歩く").free_text == "たろうが夜の公園でゆっくり歩く"
