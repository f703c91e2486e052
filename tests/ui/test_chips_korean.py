"""A chip of a Korean turn offers Korean words (the engine's, and the core's Korean time
words), and choosing one keeps the turn Korean with its Korean field names.

Before, a Korean turn was taken for English: its menus offered English words, and choosing one
rewrote "캐릭터: 민수; 동작: 달린다" as "Character: 민수; Motion: walk."."""

from __future__ import annotations

import unicodedata

import pytest

from studio.core.graphemes import scripts_in
from studio.core.instruction import parse_instruction, time_choices
from studio.core.model import CastMember
from studio.core.tree import StoryTree
from studio.engines.catalog.sketch import INFO
from studio.engines.sketch.understanding import read_turn
from studio.ui.inspector.chips_view import ChipsView, choices_for, replace_field, turn_language
from studio.ui.inspector.understanding import Chip, ChipField
from studio.ui.inspector.vocabulary import Vocabulary, collect_vocabulary

KOREAN = "캐릭터: 민수; 동작: 천천히 달린다; 배경: 밤의 공원"
ADVERBS = ("천천히", "빨리")


@pytest.fixture
def vocabulary() -> Vocabulary:
    tree = StoryTree.from_entities([CastMember(id="minsu", name="민수")])
    return collect_vocabulary(tree, INFO.vocabulary())


@pytest.mark.parametrize(("text", "names", "language"), [
    (KOREAN, (), "ko"),
    ("민수가 공원에서 달린다", ("민수",), "ko"),
    (unicodedata.normalize("NFD", KOREAN), (), "ko"),
    ("캐릭터: Qiqi; 동작: run", (), "ko"),  # Korean field names
    ("Character: 민수; Motion: run; Background: park", (), ""),  # a Korean name in an English turn
    ("민수 runs in the park", ("민수",), ""),
    ("キャラクター：민수；動作：走る", (), "ja"),  # a Japanese turn naming a Korean character
    ("角色：민수；动作：跑步", (), "zh"),
    ("Character: Qiqi; Motion: run", (), ""),
])
def test_the_language_of_a_turn_with_hangul(text: str, names: tuple[str, ...], language: str) -> None:
    assert turn_language(parse_instruction(text), names) == language


def test_a_korean_turn_is_offered_korean_words(vocabulary: Vocabulary) -> None:
    for field in (ChipField.MOTION, ChipField.PLACE, ChipField.CAMERA, ChipField.LEVEL, ChipField.TIME):
        words = choices_for(field, vocabulary, "ko")
        assert words and all(scripts_in(word) == {"hangul"} for word in words), (field, words[:5])
    assert choices_for(ChipField.TIME, vocabulary, "ko") == list(time_choices("ko"))
    assert {"아침", "낮", "저녁", "밤"} <= set(time_choices("ko"))
    assert choices_for(ChipField.CHARACTER, vocabulary, "ko") == ["민수"]


@pytest.mark.parametrize(("field", "word", "expected", "read_as"), [
    (ChipField.MOTION, "걷다", "캐릭터: 민수; 동작: 천천히 걷다; 배경: 공원; 시간: 밤.", ("walk", "park", "night")),
    (ChipField.PLACE, "바다", "캐릭터: 민수; 동작: 천천히 달린다; 배경: 바다; 시간: 밤.", ("run", "sea", "night")),
    (ChipField.TIME, "저녁", "캐릭터: 민수; 동작: 천천히 달린다; 배경: 공원; 시간: 저녁.", ("run", "park", "sunset")),
    (ChipField.LEVEL, "빨리", "캐릭터: 민수; 동작: 빨리 달린다; 배경: 공원; 시간: 밤.", ("run", "park", "night")),
    (ChipField.CAMERA, "줌인", "캐릭터: 민수; 동작: 천천히 달린다; 배경: 공원; 시간: 밤; 카메라: 줌인.",
     ("run", "park", "night")),
])
def test_a_word_chosen_keeps_the_turn_korean(field: ChipField, word: str, expected: str,
                                             read_as: tuple[str, str, str]) -> None:
    line = replace_field(parse_instruction(KOREAN), field, word, names=["민수"], adverbs=ADVERBS)
    assert line == expected
    reading = read_turn(parse_instruction(line), [], ["민수"])
    assert (reading.motion.name, reading.location, reading.time) == read_as and reading.warnings == []


def test_an_english_turn_naming_a_korean_character_is_written_in_english() -> None:
    ins = parse_instruction("Character: 민수; Motion: quickly run; Background: night harbour")
    assert replace_field(ins, ChipField.MOTION, "walk", names=["민수"]) == \
        "Character: 민수; Motion: quickly walk; Background: night harbour."


def test_the_menu_of_a_korean_chip_and_its_fix(qtbot, vocabulary: Vocabulary) -> None:  # type: ignore[no-untyped-def]
    view = ChipsView()
    qtbot.addWidget(view)
    view.set_vocabulary(vocabulary)
    view.set_turn(parse_instruction(KOREAN), None)
    menu = view.menu_for(Chip(ChipField.MOTION, "motion: run", "달린다"))
    actions = menu.actions()
    assert actions[0].text() == "Replace '달린다' with…"
    words = [action.data() for action in actions if action.data()]
    assert words and all(scripts_in(word) == {"hangul"} for word in words)
    time_menu = view.menu_for(Chip(ChipField.TIME, "time: night (밤)", "밤"))
    labels = [action.text() for action in time_menu.actions() if action.data()]
    assert "저녁 (drawn as sunset)" in labels and "밤" not in [a.data() for a in time_menu.actions()]
    with qtbot.waitSignal(view.fix_requested) as fixed:
        next(action for action in actions if action.data() == words[0]).trigger()
    line = fixed.args[0]
    assert line.startswith("캐릭터: 민수; 동작: 천천히 ") and "시간: 밤" in line
    assert parse_instruction(line).motion == f"천천히 {words[0]}"
