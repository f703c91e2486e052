"""A Motion field that names no motion (a name, a place, a number, marks, an emoji, a manner)
is never made a verb in the caption ("Qiqi yuzus", "Qiqi does the beach")."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action
from studio.export.branch import action_sentence

CAST = ("Aoi", "Qiqi", "Sosuke", "Taro", "Yuzu")


def caption(text: str, character: str = "Qiqi") -> str:
    return action_sentence(parse_instruction(text), character, CAST)


@pytest.mark.parametrize("motion", ["Yuzu", "yuzu", "YUZU", "Yuzu and Taro", "Tokyo", "Mr Tanaka", "123", "???",
                                    "...", "Qiqi"])
def test_a_name_or_no_letter_in_the_motion_leaves_the_turn_without_a_verb(motion: str) -> None:
    assert caption(f"Character: Qiqi; Motion: {motion}") == "Qiqi."
    assert caption(f"Character: Qiqi; Motion: {motion}; Background: park; Time: night") == \
        "Qiqi is in the park, at night."


def test_a_name_in_the_motion_of_a_turn_without_a_character_field_names_the_branch_character() -> None:
    assert caption("Motion: Yuzu", character="Aoi") == "Aoi."
    assert caption("Motion: 123", character="Aoi") == "Aoi."


def test_several_characters_with_a_verbless_motion_are_named_together() -> None:
    assert caption("Character: Qiqi and Yuzu; Motion: Taro; Background: beach") == "Qiqi and Yuzu are on the beach."


@pytest.mark.parametrize(("motion", "said"), [
    ("the beach", "Qiqi is on the beach."),
    ("beach", "Qiqi is on the beach."),
    ("park", "Qiqi is in the park."),
    ("at the station", "Qiqi is at the station."),
    ("to school", "Qiqi is at school."),
    ("the old library", "Qiqi is in the old library."),
    ("Central Park", "Qiqi is in Central Park."),
])
def test_a_place_in_the_motion_is_where_the_turn_is(motion: str, said: str) -> None:
    assert caption(f"Character: Qiqi; Motion: {motion}") == said


def test_a_place_in_the_motion_does_not_replace_the_background() -> None:
    assert caption("Character: Qiqi; Motion: the beach; Background: park") == "Qiqi is in the park."


def test_a_manner_alone_is_no_verb() -> None:
    assert caption("Character: Qiqi; Motion: slowly") == "Qiqi."
    assert caption("Character: Qiqi; Motion: very happily; Background: garden") == "Qiqi is in the garden."


def test_a_motion_of_where_one_is_is_said_with_is() -> None:
    assert caption("Character: Qiqi; Motion: with Yuzu") == "Qiqi is with Yuzu."
    assert caption("Character: Qiqi and Yuzu; Motion: with Taro; Background: park") == \
        "Qiqi and Yuzu are with Taro in the park."
    assert caption("Character: Qiqi; Motion: towards the light") == "Qiqi."


def test_free_text_after_a_verbless_motion_is_kept() -> None:
    assert caption("Character: Qiqi; Motion: ???; she laughs") == "She laughs."


def test_an_emoji_is_said_as_written_with_no_verb_made_of_it() -> None:
    assert caption("Character: Qiqi; Motion: 🙂") == "Qiqi 🙂."
    assert caption("Character: Qiqi; Motion: 😴; Background: park; Time: night") == "Qiqi 😴 in the park, at night."
    assert caption("Character: Qiqi; Motion: 🙂; she laughs") == "Qiqi 🙂. She laughs."
    assert caption("Qiqi 😴") == "Qiqi 😴."  # as free text says it


@pytest.mark.parametrize(("motion", "said"), [
    ("Run", "Qiqi runs."), ("Moonwalk", "Qiqi moonwalks."), ("Jumping", "Qiqi jumps."), ("stop", "Qiqi stops."),
    ("wave to Yuzu", "Qiqi waves to Yuzu."), ("Meditate", "Qiqi meditates."), ("3 apples", "Qiqi eats 3 apples."),
    ("run to the park", "Qiqi runs to the park."), ("flibbertigibbet", "Qiqi flibbertigibbets."),
])
def test_a_motion_with_a_verb_is_still_conjugated(motion: str, said: str) -> None:
    assert describe_action(parse_instruction(f"Character: Qiqi; Motion: {motion}"), cast=CAST) == said


@pytest.mark.parametrize(("text", "said"), [
    ("キャラクター：美咲；動作：ゆず；背景：公園", "美咲は公園にいる。"),
    ("角色：小明；动作：小红；背景：公园", "小明在公园。"),
    ("캐릭터: 민수; 동작: 지수; 배경: 공원", "민수가 공원에 있다."),
    ("角色：小明；动作：小红和美咲", "小明."),
])
def test_a_cast_name_in_a_japanese_chinese_or_korean_motion_is_no_verb(text: str, said: str) -> None:
    assert action_sentence(parse_instruction(text), "Qiqi", ("美咲", "ゆず", "小明", "小红", "민수", "지수")) == said


def test_a_japanese_motion_is_still_said() -> None:
    assert caption("キャラクター：美咲；動作：走る；背景：公園") == "美咲は公園で走る。"
