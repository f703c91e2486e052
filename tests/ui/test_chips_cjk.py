"""A chip of a Japanese or Chinese turn offers words in the turn's language, and choosing one
keeps the turn in its language with its field names; an English turn is offered what it was.

"Replace '走る' with…" offered English motions, and choosing one wrote an English word into
a Japanese turn. The Time box said of 夕方 nothing, and of 夜 that it was drawn by day.
"""

from __future__ import annotations

import pytest

from studio.core.graphemes import scripts_in
from studio.core.instruction import TIME_CHOICES, parse_instruction, time_choices
from studio.core.model import CastMember
from studio.core.tree import StoryTree
from studio.engines.catalog.sketch import INFO
from studio.engines.sketch.understanding import read_turn
from studio.ui.inspector.chips_view import LEVEL_ADVERBS, ChipsView, choices_for, replace_field, turn_language
from studio.ui.inspector.understanding import Chip, ChipField, time_choices_note
from studio.ui.inspector.vocabulary import Vocabulary, collect_vocabulary

JAPANESE = "キャラクター：美咲；動作：走る；背景：港；時間帯：夜"
CHINESE = "角色：小明；动作：跑步；背景：公园；时间：晚上"
TRADITIONAL = "角色：小明；動作：跑步；場景：公園；時間：晚上"
ENGLISH = "Character: Qiqi; Motion: quickly run; Background: night harbour"


@pytest.fixture
def vocabulary() -> Vocabulary:
    tree = StoryTree.from_entities([CastMember(id="misaki", name="美咲")])
    return collect_vocabulary(tree, INFO.vocabulary())


def _latin(word: str) -> bool:
    """Whether ``word`` is written in Latin letters alone (卡拉OK is Chinese)."""
    return not scripts_in(word) & {"kana", "han"}


def test_the_language_of_a_turn() -> None:
    assert [turn_language(parse_instruction(text)) for text in (JAPANESE, CHINESE, TRADITIONAL, ENGLISH)] == \
        ["ja", "zh", "zh-hant", ""]


@pytest.mark.parametrize(("text", "language"), [(JAPANESE, "ja"), (CHINESE, "zh"), (TRADITIONAL, "zh-hant")])
def test_a_cjk_turn_is_offered_words_of_its_language(vocabulary: Vocabulary, text: str, language: str) -> None:
    for field in (ChipField.MOTION, ChipField.PLACE, ChipField.CAMERA, ChipField.LEVEL, ChipField.TIME):
        words = choices_for(field, vocabulary, language)
        assert words and not any(_latin(word) for word in words), (field, words[:5])
    assert choices_for(ChipField.TIME, vocabulary, language) == list(time_choices(language))
    assert choices_for(ChipField.CHARACTER, vocabulary, language) == ["美咲"]  # names as written


def test_an_english_turn_is_offered_what_it_was(vocabulary: Vocabulary) -> None:
    engine = INFO.vocabulary()
    assert choices_for(ChipField.MOTION, vocabulary) == sorted(engine.motions)
    assert choices_for(ChipField.TIME, vocabulary) == list(TIME_CHOICES)
    assert choices_for(ChipField.LEVEL, vocabulary)[:len(LEVEL_ADVERBS)] == list(LEVEL_ADVERBS)
    assert choices_for(ChipField.CAMERA, vocabulary, "") == list(engine.cameras)


def test_without_words_in_a_language_the_english_ones_are_offered() -> None:
    english = Vocabulary(motions=["run", "walk"], adverbs=["slowly"])
    assert choices_for(ChipField.MOTION, english, "ja") == ["run", "walk"]
    assert choices_for(ChipField.LEVEL, english, "ja") == list(LEVEL_ADVERBS)  # "slowly" is one of them


def test_traditional_chinese_is_offered_in_traditional(vocabulary: Vocabulary) -> None:
    places = choices_for(ChipField.PLACE, vocabulary, "zh-hant")
    assert "圖書館" in places and "图书馆" not in places
    assert "图书馆" in choices_for(ChipField.PLACE, vocabulary, "zh")
    assert "黃昏" in choices_for(ChipField.TIME, vocabulary, "zh-hant")


@pytest.mark.parametrize(("text", "field", "word", "expected", "read_as"), [
    (JAPANESE, ChipField.MOTION, "歩く", "キャラクター：美咲；動作：歩く；背景：港；時間帯：夜。",
     ("walk", "sea", "night")),
    (JAPANESE, ChipField.TIME, "夕方", "キャラクター：美咲；動作：走る；背景：港；時間帯：夕方。",
     ("run", "sea", "sunset")),
    (JAPANESE, ChipField.LEVEL, "ゆっくり", "キャラクター：美咲；動作：ゆっくり走る；背景：港；時間帯：夜。",
     ("run", "sea", "night")),
    (CHINESE, ChipField.PLACE, "图书馆", "角色：小明；动作：跑步；背景：图书馆；时间：晚上。",
     ("run", "library", "night")),
    (TRADITIONAL, ChipField.MOTION, "走路", "角色：小明；動作：走路；場景：公園；時間：晚上。",
     ("walk", "park", "night")),
])
def test_a_word_chosen_keeps_the_turn_s_language(text: str, field: ChipField, word: str, expected: str,
                                                 read_as: tuple[str, str, str]) -> None:
    line = replace_field(parse_instruction(text), field, word)
    assert line == expected
    reading = read_turn(parse_instruction(line), [], ["美咲", "小明"])
    assert (reading.motion.name, reading.location, reading.time) == read_as and reading.warnings == []


def test_an_english_turn_s_word_is_written_as_before() -> None:
    ins = parse_instruction(ENGLISH)
    assert replace_field(ins, ChipField.MOTION, "walk") == \
        "Character: Qiqi; Motion: quickly walk; Background: night harbour."
    assert replace_field(ins, ChipField.LEVEL, "slowly") == \
        "Character: Qiqi; Motion: slowly run; Background: night harbour."


def test_time_words_are_labelled_with_how_they_are_drawn() -> None:
    assert time_choices_note("夕方") == "夕方 (drawn as sunset)"
    assert time_choices_note("夜") == "夜"
    assert time_choices_note("dawn") == "dawn (drawn as sunset)" and time_choices_note("night") == "night"


def test_the_menu_of_a_japanese_chip_and_its_fix(qtbot, vocabulary: Vocabulary) -> None:  # type: ignore[no-untyped-def]
    view = ChipsView()
    qtbot.addWidget(view)
    view.set_vocabulary(vocabulary)
    view.set_turn(parse_instruction(JAPANESE), None)
    menu = view.menu_for(Chip(ChipField.MOTION, "motion: run", "走る"))
    actions = menu.actions()
    assert actions[0].text() == "Replace '走る' with…"  # the author's word as written
    words = [action.data() for action in actions if action.data()]
    assert words and "走る" not in words and not any(_latin(word) for word in words)
    assert "歩く" in words or len(words) == 24
    time_menu = view.menu_for(Chip(ChipField.TIME, "time: night (夜)", "夜"))
    labels = [action.text() for action in time_menu.actions() if action.data()]
    assert "夕方 (drawn as sunset)" in labels and "夜" not in [a.data() for a in time_menu.actions()]
    with qtbot.waitSignal(view.fix_requested) as fixed:
        next(action for action in actions if action.data() == words[0]).trigger()
    line = fixed.args[0]
    assert line.startswith("キャラクター：美咲；動作：") and "時間帯：夜" in line
    assert parse_instruction(line).motion == words[0]


def test_the_time_box_notes_japanese_and_chinese_words(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.inspector.instruction_editor import InstructionEditor

    editor = InstructionEditor()
    qtbot.addWidget(editor)
    editor.show()
    editor.time.setCurrentText("夕方")
    assert editor.time_note.text() == "'夕方' is drawn with the low warm light of sunset."
    assert editor.time_note.isVisibleTo(editor)
    editor.time.setCurrentText("夜")
    assert editor.time_note.text() == "" and not editor.time_note.isVisibleTo(editor)
    editor.time.setCurrentText("おやつ時")
    assert "not a time of day the studio knows" in editor.time_note.text()
