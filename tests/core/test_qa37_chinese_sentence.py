"""A turn written in Chinese is read as fields and captioned in Chinese: before, its field names
(角色, 动作, 时间...) were free text, and ``Character: 小明; Motion: 跑步; Background: 公园; Time: 晚上``
read "小明 跑步 in the 公园, at 晚上."; now "晚上，小明在公园跑步。". Japanese and English turns
keep their sentences."""

from __future__ import annotations

import pytest

from studio.core.instruction import InstructionError, parse_instruction, validate_instruction_text
from studio.core.sentence import describe_action, marked_chinese


def sentence(text: str, character: str = "") -> str:
    return describe_action(parse_instruction(text), character)


@pytest.mark.parametrize(("text", "fields"), [
    ("角色：小明；动作：跑步；背景：公园；时间：晚上",
     {"character": "小明", "motion": "跑步", "background": "公园", "time_of_day": "晚上"}),
    ("角色：小明；動作：跑步；地點：公園；時間：晚上；鏡頭：跟拍",
     {"character": "小明", "motion": "跑步", "background": "公園", "time_of_day": "晚上", "camera": "跟拍"}),
    ("人物：小红，动作：挥手，场景：海边，时段：傍晚，镜头：固定，方式：慢慢",
     {"character": "小红", "motion": "挥手", "background": "海边", "time_of_day": "傍晚", "camera": "固定",
      "adverb": "慢慢"}),
    ("角色：小明 动作：唱歌 地点：学校", {"character": "小明", "motion": "唱歌", "background": "学校"}),
    ("角色：小明；动作：跳舞；場景：教室；运镜：环绕", {"character": "小明", "motion": "跳舞", "background": "教室",
                                                 "camera": "环绕"}),
])
def test_chinese_field_names_are_read_as_fields(text: str, fields: dict[str, str]) -> None:
    assert parse_instruction(text).fields() == fields


def test_a_chinese_field_given_twice_is_refused_naming_both() -> None:
    with pytest.raises(InstructionError, match="gives its motion twice \\('动作：跑步' and '動作：走'\\)"):
        validate_instruction_text("角色：小明；动作：跑步；動作：走")


@pytest.mark.parametrize(("text", "expected"), [
    ("角色：小明；动作：跑步；背景：公园；时间：晚上", "晚上，小明在公园跑步。"),
    ("角色：小明；動作：跑步；背景：公園；時間：晚上", "晚上，小明在公園跑步。"),
    ("角色：小明；动作：跑步；背景：公园", "小明在公园跑步。"),
    ("角色：小明；动作：跑步；时间：晚上", "晚上，小明跑步。"),
    ("动作：跑步；背景：公园；时间：晚上", "晚上，在公园跑步。"),
    ("角色：小明；动作：跑步", "小明跑步。"),
    ("角色：小明；背景：公园", "小明在公园。"),
    ("背景：公园；时间：晚上", "晚上，这里是公园。"),
    ("角色：小明；动作：正在跑步；背景：在公园", "小明正在公园跑步。"),   # 在 written by the author: said once
    ("角色：小明；动作：跑步；背景：公园；方式：慢慢地", "小明在公园慢慢地跑步。"),
    ("角色：小明；动作：跑步；背景：公园；镜头：跟拍", "小明在公园跑步。"),  # the camera is no part of it
    ("角色：小明；动作：跑步；背景：公园；时间：晚上；他很开心", "晚上，小明在公园跑步。他很开心。"),
    # the turn of the report, English keys: its words are Chinese (公园 is Chinese only)
    ("Character: 小明; Motion: 跑步; Background: 公园; Time: 晚上", "晚上，小明在公园跑步。"),
])
def test_a_chinese_turn_reads_as_a_chinese_sentence(text: str, expected: str) -> None:
    assert sentence(text) == expected


@pytest.mark.parametrize(("time", "said"), [("night", "晚上"), ("dawn", "黎明"), ("evening", "傍晚"), ("day", "白天")])
def test_a_time_picked_in_english_is_said_in_chinese(time: str, said: str) -> None:
    assert sentence(f"角色：小明；动作：跑步；背景：公园；时间：{time}") == f"{said}，小明在公园跑步。"


def test_a_time_picked_in_english_is_said_in_traditional_for_a_traditional_turn() -> None:
    assert sentence("角色：小明；動作：跑步；背景：公園；時間：dusk") == "黃昏，小明在公園跑步。"


def test_the_branch_character_acts_a_chinese_turn_that_names_no_one() -> None:
    assert sentence("动作：跑步；背景：公园", character="小明") == "小明在公园跑步。"


@pytest.mark.parametrize(("text", "expected"), [
    ("キャラクター：美咲；動作：手を振る；背景：公園；時間帯：夜", "夜、美咲は公園で手を振る。"),
    ("動作：散歩；背景：公園", "公園で散歩。"),                 # kanji only, Japanese key: Japanese as before
    ("人物：美咲；動作：走る；背景：森", "美咲は森で走る。"),
    ("Character: Qiqi; Motion: gently sit on railing; Background: day town.",
     "Qiqi gently sits on the railing in the town, by day."),
    ("角色：小明；动作：wave；背景：park", "小明 waves in the park."),   # English words: an English sentence
    ("Character: 민수; Motion: 달리다; Background: 공원", "민수는 공원에서 달린다."),
])
def test_japanese_and_english_turns_keep_their_sentence(text: str, expected: str) -> None:
    assert sentence(text) == expected


@pytest.mark.parametrize(("text", "chinese"), [
    ("角色：小明；动作：跑步", True),          # a Chinese field name
    ("小明晚上在公园跑步", True),             # 园 is written in Chinese only
    ("小明在公園跑步", True),                # the particle 在
    ("她們在跑步", True),
    ("動作：散歩；背景：公園", False),        # 歩: Japanese
    ("美咲が走る", False),                   # kana: Japanese
    ("現在の公園", False),
    ("動作：走；背景：公園", False),          # says neither: Japanese, as before
    ("Character: Qiqi; Motion: run", False),
])
def test_how_a_chinese_turn_is_told_from_a_japanese_one(text: str, chinese: bool) -> None:
    assert marked_chinese(parse_instruction(text)) is chinese
