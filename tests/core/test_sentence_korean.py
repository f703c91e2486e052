"""A turn written in Korean is read as fields and captioned in Korean: before, its field names
(캐릭터, 동작, 배경, 시간...) were free text, shown as written, and ``Character: 민수; Motion: 달리기;
Background: 공원; Time: 밤`` read "민수 달리기 in the 공원, at 밤."; now "민수는 밤에 공원에서 달린다." (the motion in
the plain present).
The particles follow the last sound of the word before them (민수는, 민준은; 민수가, 민준이).
Japanese, Chinese and English turns keep their sentences."""

from __future__ import annotations

import pytest

from studio.core.instruction import (
    KEY_ALIASES,
    KOREAN_KEYS,
    InstructionError,
    parse_instruction,
    validate_instruction_text,
)
from studio.core.sentence import describe_action, korean_particle, marked_chinese, written_in_japanese


def sentence(text: str, character: str = "") -> str:
    return describe_action(parse_instruction(text), character)


@pytest.mark.parametrize(("text", "fields"), [
    ("캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 밤",
     {"character": "민수", "motion": "달리기", "background": "공원", "time_of_day": "밤"}),
    ("인물: 지우; 행동: 걷는다; 장소: 바닷가; 시간대: 저녁; 카메라: 줌인; 방식: 천천히",
     {"character": "지우", "motion": "걷는다", "background": "바닷가", "time_of_day": "저녁", "camera": "줌인",
      "adverb": "천천히"}),
    ("캐릭터：민수；동작：춤춘다；배경：교실", {"character": "민수", "motion": "춤춘다", "background": "교실"}),
    ("캐릭터: 민수 동작: 노래한다 배경: 학교", {"character": "민수", "motion": "노래한다", "background": "학교"}),
    ("등장인물: 민수, 움직임: 달린다, 위치: 공원", {"character": "민수", "motion": "달린다", "background": "공원"}),
])
def test_korean_field_names_are_read_as_fields(text: str, fields: dict[str, str]) -> None:
    assert parse_instruction(text).fields() == fields


def test_the_korean_keys_are_the_hangul_field_names() -> None:
    assert {key for key in KEY_ALIASES if any("\uac00" <= ch <= "\ud7a3" for ch in key)} == KOREAN_KEYS


def test_a_korean_field_given_twice_is_refused_naming_both() -> None:
    with pytest.raises(InstructionError, match="gives its motion twice"):
        validate_instruction_text("캐릭터: 민수; 동작: 달린다; 행동: 걷는다")


@pytest.mark.parametrize(("text", "expected"), [
    ("캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 밤", "민수는 밤에 공원에서 달린다."),
    ("캐릭터: 민수; 동작: 달린다; 배경: 공원", "민수는 공원에서 달린다."),
    ("캐릭터: 민준; 동작: 달린다; 배경: 공원", "민준은 공원에서 달린다."),      # a final consonant: 은
    ("캐릭터: 민수; 동작: 달린다; 시간: 밤", "민수는 밤에 달린다."),
    ("동작: 달린다; 배경: 공원; 시간: 밤", "밤에 공원에서 달린다."),
    ("캐릭터: 민수; 동작: 달린다", "민수는 달린다."),
    ("캐릭터: 민수; 배경: 공원", "민수가 공원에 있다."),                     # no motion: 이/가 ... 있다
    ("캐릭터: 민준; 배경: 바다", "민준이 바다에 있다."),
    ("배경: 공원; 시간: 밤", "밤의 공원."),
    ("배경: 공원", "여기는 공원이다."),
    ("배경: 바다", "여기는 바다다."),
    ("캐릭터: 민수; 동작: 달린다; 배경: 공원에서", "민수는 공원에서 달린다."),  # 에서 written: said once
    ("캐릭터: 민수; 동작: 달린다; 배경: 공원; 시간: 밤에", "민수는 밤에 공원에서 달린다."),
    ("캐릭터: 민수; 동작: 달린다; 배경: 공원; 시간: 오늘", "민수는 오늘 공원에서 달린다."),  # 오늘: no 에
    ("캐릭터: 민수; 동작: 달린다; 배경: 공원; 방식: 천천히", "민수는 공원에서 천천히 달린다."),
    ("캐릭터: 민수; 동작: 달린다; 배경: 공원; 카메라: 줌인", "민수는 공원에서 달린다."),  # the camera is no part of it
    ("캐릭터: 민수; 동작: 안 달린다; 배경: 공원", "민수는 공원에서 안 달린다."),
    ("캐릭터: 민수; 동작: 달린다; 배경: 공원; 그는 행복하다", "민수는 공원에서 달린다. 그는 행복하다."),
    # the turn of the report, English keys: its words are Korean
    ("Character: 민수; Motion: 달리기; Background: 공원; Time: 밤", "민수는 밤에 공원에서 달린다."),
])
def test_a_korean_turn_reads_as_a_korean_sentence(text: str, expected: str) -> None:
    assert sentence(text) == expected


@pytest.mark.parametrize(("time", "said"), [("night", "밤에"), ("dawn", "새벽에"), ("evening", "저녁에"),
                                            ("day", "낮에"), ("sunset", "해 질 녘에")])
def test_a_time_picked_in_english_is_said_in_korean(time: str, said: str) -> None:
    assert sentence(f"캐릭터: 민수; 동작: 달린다; 배경: 공원; 시간: {time}") == f"민수는 {said} 공원에서 달린다."


@pytest.mark.parametrize(("character", "expected"), [
    ("지우", "지우는 공원에서 달린다."), ("하은", "하은은 공원에서 달린다."), ("Qiqi", "Qiqi는 공원에서 달린다."),
    ("Jack", "Jack은(는) 공원에서 달린다."),
])
def test_the_branch_character_acts_a_korean_turn_that_names_no_one(character: str, expected: str) -> None:
    assert sentence("동작: 달린다; 배경: 공원", character=character) == expected


@pytest.mark.parametrize(("word", "topic", "subject"), [
    ("민수", "민수는", "민수가"), ("민준", "민준은", "민준이"), ("공원", "공원은", "공원이"),
    ("바다", "바다는", "바다가"), ("하늘", "하늘은", "하늘이"), ("Qiqi", "Qiqi는", "Qiqi가"),
    ("Ken", "Ken은", "Ken이"), ("Jack", "Jack은(는)", "Jack이(가)"),
])
def test_the_particle_follows_the_last_sound_of_the_word(word: str, topic: str, subject: str) -> None:
    assert (korean_particle(word, "은", "는"), korean_particle(word, "이", "가")) == (topic, subject)


def test_free_korean_text_is_shown_as_written() -> None:
    assert sentence("민수가 밤에 공원에서 달린다") == "민수가 밤에 공원에서 달린다."


@pytest.mark.parametrize(("text", "expected"), [
    ("キャラクター：美咲；動作：手を振る；背景：公園；時間帯：夜", "夜、美咲は公園で手を振る。"),
    ("角色：小明；动作：跑步；背景：公园；时间：晚上", "晚上，小明在公园跑步。"),
    ("キャラクター：민수；動作：走る；背景：公園", "민수は公園で走る。"),      # a Korean name in a Japanese turn
    ("角色：민수；动作：跑步；背景：公园", "민수在公园跑步。"),              # and in a Chinese one
    ("Character: Qiqi; Motion: gently sit on railing; Background: day town.",
     "Qiqi gently sits on the railing in the town, by day."),
    ("캐릭터: 민수; 동작: run; 배경: park", "민수 runs in the park."),        # English words: an English sentence
    ("Character: 민수; Motion: run; Background: 공원", "민수 runs in the park."),  # mixed: the motion's language
])
def test_japanese_chinese_and_english_turns_keep_their_sentence(text: str, expected: str) -> None:
    assert sentence(text) == expected


def test_a_korean_key_does_not_make_han_fields_japanese_or_chinese() -> None:
    instruction = parse_instruction("동작: 散歩; 배경: 公園")
    assert not written_in_japanese(instruction)
    assert not marked_chinese(parse_instruction("캐릭터: 민수; 동작: 달린다"))
