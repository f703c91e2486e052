"""Hangul typed as separate letters (conjoining jamo, as macOS file names and some input
methods write it: NFD) reads as the same turn as Hangul typed as syllables. Before,
"동작: 달린다" typed apart had no field: its field names matched none, and the whole turn was
free text. What the author wrote is kept as written; only the reading composes it."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from studio.core.commands import AddTurn
from studio.core.instruction import composed_hangul, parse_instruction, read_within
from studio.engines.sketch.understanding import turn_in_english

COMPOSED = "캐릭터: 민수; 동작: 천천히 달린다; 배경: 밤의 공원; 카메라: 줌인"
APART = unicodedata.normalize("NFD", COMPOSED)


def test_the_text_typed_apart_is_not_the_text_typed_as_syllables() -> None:
    assert APART != COMPOSED and len(APART) > len(COMPOSED)


def test_hangul_typed_apart_is_read_as_the_same_fields() -> None:
    apart, composed = parse_instruction(APART), parse_instruction(COMPOSED)
    assert apart.fields() == composed.fields()
    assert (apart.character, apart.motion, apart.background, apart.camera) == \
        ("민수", "천천히 달린다", "밤의 공원", "줌인")
    assert apart.raw == APART  # kept as the author wrote it


@pytest.mark.parametrize("text", [
    "민수가 공원에서 달린다",
    "Character: 민수; Motion: 달리다",
    "동작: 달린다",
])
def test_free_text_and_korean_values_read_the_same(text: str) -> None:
    apart = parse_instruction(unicodedata.normalize("NFD", text))
    assert apart.fields() == parse_instruction(text).fields()
    assert turn_in_english(apart, ["민수"]).fields() == turn_in_english(parse_instruction(text), ["민수"]).fields()


def test_syllables_and_letters_mixed_in_one_word_compose() -> None:
    # 달 written as the syllable 다 and a final ㄹ typed apart
    mixed = "동작: \ub2e4\u11af린다"
    assert composed_hangul(mixed) == "동작: 달린다"
    assert parse_instruction(mixed).motion == "달린다"


@pytest.mark.parametrize("text", [
    "キャラクター：美咲；動作：走る",
    "か\u3099っこう",  # が typed as か and a combining dakuten
    "Character: Ame\u0301lie; Motion: run",  # an accent typed apart
    "角色：小明；动作：跑步",
    "Qiqi waves 👋🏽 at the station",
    "ㄱㄴㄷ 동작",  # compatibility letters are not conjoining jamo
])
def test_other_scripts_are_left_as_written(text: str) -> None:
    assert composed_hangul(text) == text  # so each is parsed exactly as before


def test_a_field_held_to_a_limit_is_read_composed_too() -> None:
    read, cuts = read_within(parse_instruction(APART), 3)
    assert read.character == "민수" and read.motion == "천천히" and read.raw == APART
    assert {cut.written_key for cut in cuts} == {"동작", "배경"}


def test_a_turn_typed_apart_is_stored_as_written_and_read_composed(tmp_path: Path) -> None:
    from studio.storage import Project

    with Project.create(tmp_path / "story") as project:
        project.apply(AddTurn(project.tree.root_id, APART, node_id="n1"))
    with Project.open(tmp_path / "story") as project:
        node = project.tree.node("n1")
        assert node.instruction.raw == APART
        assert node.instruction.motion == "천천히 달린다"
