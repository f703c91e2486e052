"""A caption spells a cast member's name as the cast does, and is written in one language.

"Character: QIQI; Motion: run" was captioned "QIQI runs in the park", and a Korean motion beside
English fields gave "Qiqi 산책 in the park". A name of the cast typed in another case is now
said as the cast spells it, in every caption language (a name outside the cast as typed); and
where the fields mix languages, the motion's language is the caption's, with a place (or a
time) it knows named in that language: "Qiqi는 공원에서 산책한다." An English motion beside a
Japanese, Chinese or Korean place is an English caption: "Qiqi runs in the park.". A motion
that opens with a clause of time is said with its subject before the main verb: "Before
running, Qiqi stretches." (it was "Qiqi befores running, stretch.")."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import cast_spelling, describe_action, sentence_language

CAST = ("Qiqi", "Yuzu", "Ōtsuki Ren")


def caption(text: str, character: str = "") -> str:
    return describe_action(parse_instruction(text), character, CAST)


@pytest.mark.parametrize(("text", "said"), [
    ("Character: QIQI; Motion: run; Background: park", "Qiqi runs in the park."),
    ("Character: yuzu and qiqi; Motion: wave", "Yuzu and Qiqi wave."),
    ("Character: QIQI and yuzu; Motion: dance", "Qiqi and Yuzu dance."),
    ("Character: ōtsuki REN; Motion: sit", "Ōtsuki Ren sits."),
    ("キャラクター：QIQI；動作：走る；背景：公園", "Qiqiは公園で走る。"),
    ("角色：QIQI；动作：跑步；背景：公园", "Qiqi在公园跑步。"),
    ("캐릭터: QIQI; 동작: 달린다; 배경: 공원", "Qiqi는 공원에서 달린다."),
])
def test_a_cast_name_typed_in_another_case_is_said_as_the_cast_spells_it(text: str, said: str) -> None:
    assert caption(text) == said


def test_the_acting_character_gives_the_spelling_without_the_cast() -> None:
    """The export passes who acts (as the story spells them): that is enough for one name."""
    instruction = parse_instruction("Character: QIQI; Motion: run; Background: park")
    assert describe_action(instruction, "Qiqi") == "Qiqi runs in the park."


@pytest.mark.parametrize(("text", "said"), [
    ("Character: HANA; Motion: run", "HANA runs."),
    ("Character: QIQI and hana; Motion: dance", "Qiqi and hana dance."),
])
def test_a_name_outside_the_cast_is_kept_as_typed(text: str, said: str) -> None:
    assert caption(text) == said


def test_cast_spelling_keeps_the_joiners_as_written() -> None:
    assert cast_spelling("QIQI & yuzu", CAST) == "Qiqi & Yuzu"
    assert cast_spelling("QIQI와 yuzu", CAST) == "Qiqi와 Yuzu"
    assert cast_spelling("Mei", CAST) == "Mei"


@pytest.mark.parametrize(("text", "said"), [
    ("Character: Qiqi; Motion: 산책; Background: park", "Qiqi는 공원에서 산책한다."),
    ("Character: Qiqi; Motion: 산책; Background: park; Time: night", "Qiqi는 밤에 공원에서 산책한다."),
    ("Character: Qiqi; Motion: 달린다; Background: Central Park", "Qiqi는 Central Park에서 달린다."),
    ("Character: Qiqi; Motion: 手を振る; Background: park", "Qiqiは公園で手を振る。"),
    ("Character: Qiqi; Motion: 散歩する; Background: library; Time: evening", "夕方、Qiqiは図書館で散歩する。"),
    ("Character: Qiqi; Motion: 散歩; Background: beach", "Qiqiは浜辺で散歩。"),
    ("Character: Qiqi; Motion: 跑步; Background: park", "Qiqi在公园跑步。"),
    ("Character: Qiqi; Motion: 散步; Background: station; Time: night", "晚上，Qiqi在车站散步。"),
])
def test_a_motion_in_korean_japanese_or_chinese_makes_the_caption_its_language(text: str, said: str) -> None:
    assert caption(text) == said


@pytest.mark.parametrize(("text", "said"), [
    ("Character: Qiqi; Motion: run; Background: 공원", "Qiqi runs in the park."),
    ("Character: Qiqi; Motion: run; Background: 公園で", "Qiqi runs in the park."),
    ("Character: Qiqi; Motion: run; Background: 公园; Time: 晚上", "Qiqi runs in the park, at night."),
    ("Character: Qiqi; Motion: walk; Background: 도서관; Time: 밤", "Qiqi walks in the library, at night."),
    ("Character: Qiqi; Motion: run; Background: 한강", "Qiqi runs in 한강."),
])
def test_an_english_motion_beside_a_cjk_place_is_an_english_caption(text: str, said: str) -> None:
    assert caption(text) == said


@pytest.mark.parametrize(("text", "said"), [
    ("Character: Qiqi; Motion: 산책; Adverb: slowly; Background: park", "Qiqi는 공원에서 천천히 산책한다."),
    ("Character: Qiqi; Motion: 手を振る; Adverb: very slowly", "Qiqiはとてもゆっくり手を振る。"),
    ("Character: Qiqi; Motion: 跑步; Adverb: quickly; Background: park", "Qiqi在公园快速地跑步。"),
    ("Character: Qiqi; Motion: run; Adverb: 천천히; Background: 공원", "Qiqi slowly runs in the park."),
    ("Character: Qiqi; Motion: 산책; Adverb: moodily", "Qiqi는 moodily 산책한다."),  # unknown: as written
])
def test_a_manner_in_another_language_is_said_in_the_captions(text: str, said: str) -> None:
    assert caption(text) == said


@pytest.mark.parametrize(("text", "language"), [
    ("Character: Qiqi; Motion: 산책; Background: park", "ko"),
    ("Character: Qiqi; Motion: 走る; Background: park", "ja"),
    ("Character: Qiqi; Motion: 読書; Background: park", "ja"),
    ("Character: Qiqi; Motion: 跑步; Background: park", "zh"),
    ("Character: Qiqi; Motion: run; Background: 公園", "en"),
    ("Character: Qiqi; Motion: run; Background: park", "en"),
    ("캐릭터: 민수; 동작: 달린다; 배경: 공원", "ko"),
])
def test_the_caption_language_is_the_motions(text: str, language: str) -> None:
    assert sentence_language(parse_instruction(text), "Qiqi") == language


@pytest.mark.parametrize(("text", "said"), [
    ("Character: Qiqi; Motion: before running, stretch; Background: park",
     "Before running, Qiqi stretches in the park."),
    ("Character: Qiqi; Motion: after lunch, dance", "After lunch, Qiqi dances."),
    ("Character: Qiqi and Yuzu; Motion: before they sleep, read a book",
     "Before they sleep, Qiqi and Yuzu read a book."),
    ("Character: Qiqi; Motion: 走る前に、ストレッチする", "Qiqiは走る前に、ストレッチする。"),
    ("Character: Qiqi; Motion: 달리기 전에 스트레칭", "Qiqi는 달리기 전에 스트레칭한다."),
])
def test_a_motion_opening_with_a_clause_of_time_keeps_it_first(text: str, said: str) -> None:
    assert caption(text) == said
