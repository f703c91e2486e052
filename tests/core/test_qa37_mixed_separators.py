"""Instructions as authors really type them: half-width and full-width punctuation mixed,
spaces instead of semicolons between Japanese fields, full stops between fields, keys typed
in full-width letters, direction marks from a right-to-left editor, and field names with
nothing after them.

Each of these was read wrongly: one field swallowed the next ("キャラクター：美咲　動作：手を
振る" was a character called "美咲 動作：手を振る"), a key was not known ("Ｍｏｔｉｏｎ："), a
right-to-left mark made "Character\u200f:" free text, and a field name alone became the turn's
caption ("Motion." for "Character: Qiqi; Motion").
"""

from __future__ import annotations

import pytest

from studio.core.instruction import field_spans, parse_instruction, validate_instruction_text
from studio.core.sentence import describe_action


@pytest.mark.parametrize("raw", [
    "キャラクター：美咲\u3000動作：手を振る\u3000背景：公園",  # ideographic spaces between fields
    "キャラクター：美咲 動作：手を振る 背景：公園",  # plain spaces before Japanese keys
    "キャラクター：美咲。動作：手を振る。背景：公園。",  # Japanese full stops between fields
    "キャラクター:美咲; 動作：手を振る;背景 ：公園",  # half-width and full-width mixed
    "人物：美咲、Motion: 手を振る；場所: 公園",  # keys of both languages in one turn
])
def test_japanese_fields_are_read_whatever_separates_them(raw: str) -> None:
    validate_instruction_text(raw)
    instruction = parse_instruction(raw)
    assert (instruction.character, instruction.motion, instruction.background) == ("美咲", "手を振る", "公園")
    assert instruction.free_text == ""
    spans = field_spans(raw)
    assert [raw[start:end] for start, end in spans.values()] == ["美咲", "手を振る", "公園"]


def test_full_width_keys_are_known() -> None:
    raw = "Ｃｈａｒａｃｔｅｒ：Qiqi，Ｍｏｔｉｏｎ：run；Ｂａｃｋｇｒｏｕｎｄ：park"
    instruction = parse_instruction(raw)
    assert (instruction.character, instruction.motion, instruction.background) == ("Qiqi", "run", "park")
    assert describe_action(instruction) == "Qiqi runs in the park."


def test_an_english_full_stop_between_fields_ends_the_field() -> None:
    instruction = parse_instruction("Character: Qiqi. Motion: run. Background: park.")
    assert (instruction.character, instruction.motion, instruction.background) == ("Qiqi", "run", "park")


def test_prose_with_a_full_stop_before_a_word_and_colon_stays_prose() -> None:
    instruction = parse_instruction("She waits. Time: is running out")
    assert instruction.time_of_day == "" and instruction.free_text == "She waits. Time: is running out"
    # a space inside an English value is never a separator
    assert parse_instruction("Motion: look at the camera: smile").motion == "look at the camera: smile"


@pytest.mark.parametrize("raw", [
    "Character\u200f: سارة\u200f; Motion\u200e: wave; Background: حديقة",
    "\u200fCharacter:\u200f سارة; Motion: wave\u200e; Background:\u200f حديقة\u200f.",
])
def test_direction_marks_at_the_edges_of_keys_and_values_are_not_read(raw: str) -> None:
    instruction = parse_instruction(raw)
    assert (instruction.character, instruction.motion, instruction.background) == ("سارة", "wave", "حديقة")
    assert describe_action(instruction) == "سارة waves in the حديقة."
    assert [raw[start:end] for start, end in field_spans(raw).values()] == ["سارة", "wave", "حديقة"]


@pytest.mark.parametrize(("raw", "character"), [
    ("Character: Qiqi; Motion", "Qiqi"),
    ("キャラクター：美咲；動作", "美咲"),
    ("動作", ""),
    ("Character", ""),
    ("Motion:", ""),
    ("キャラクター：；動作：；背景：。", ""),
])
def test_a_field_name_with_nothing_after_it_is_a_blank_field(raw: str, character: str) -> None:
    instruction = parse_instruction(raw)
    assert instruction.character == character
    assert instruction.free_text == "" and instruction.motion == ""
    assert describe_action(instruction) == ""  # never "Motion." nor "動作：." as a caption


def test_a_word_that_is_also_an_instruction_stays_text() -> None:
    assert parse_instruction("Move").free_text == "Move"
    assert describe_action(parse_instruction("...")) == "..."


@pytest.mark.parametrize("raw", [
    "角色：小明；Motion: 挥手；Background: 公园",
    "人物：小明；動作：揮手；背景：公園",
    "Character: 민수; Motion: 손을 흔들다; Background: 공원",
])
def test_chinese_and_korean_values_are_kept_as_written(raw: str) -> None:
    instruction = parse_instruction(raw)
    values = [value.split("：")[-1].split(": ")[-1] for value in raw.split("；" if "；" in raw else "; ")]
    assert [instruction.motion, instruction.background] == values[1:]
