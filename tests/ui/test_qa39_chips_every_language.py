"""Every chip of a turn, in each language a turn is written in (English, Japanese, Simplified
and Traditional Chinese, Korean): its menu offers words of the turn's language, and the word
chosen from it rewrites only that field, keeping the turn's language and its field names.

The chips are the ones the inspector builds from a take's reading, and the word is chosen by
triggering the menu's own action, as a click does."""

from __future__ import annotations

import re

import pytest

from studio.core.graphemes import scripts_in
from studio.core.instruction import Instruction, parse_instruction
from studio.core.model import CastMember, Take
from studio.core.tree import StoryTree
from studio.engines.catalog.sketch import INFO
from studio.engines.sketch.understanding import read_turn
from studio.ui.inspector.chips_view import ChipsView
from studio.ui.inspector.instruction_editor import LINE_KEYS, turn_language
from studio.ui.inspector.understanding import Chip, ChipField
from studio.ui.inspector.vocabulary import Vocabulary, collect_vocabulary

TURNS = {
    "": "Character: Qiqi; Motion: quickly run; Background: harbour; Time: night; Camera: zoom in",
    "ja": "キャラクター：美咲；動作：ゆっくり走る；背景：港；時間帯：夜；カメラ：固定",
    "zh": "角色：小明；动作：慢慢地跑步；背景：公园；时间：晚上；镜头：固定",
    "zh-hant": "角色：小明；動作：跑步；場景：公園；時間：晚上；鏡頭：固定",
    "ko": "캐릭터: 민수; 동작: 천천히 달린다; 배경: 공원; 시간: 밤; 카메라: 고정",
}
CAST = ("Qiqi", "美咲", "小明", "민수")
SCRIPTS = {"": {"letter"}, "ja": {"kana", "han"}, "zh": {"han"}, "zh-hant": {"han"}, "ko": {"hangul"}}
"""The scripts the words offered for a turn of each language may be written in."""
FIELDS = (ChipField.CHARACTER, ChipField.MOTION, ChipField.PLACE, ChipField.TIME, ChipField.CAMERA,
          ChipField.LEVEL)
_KEY = re.compile(r"\s*([^:：;；]+?)\s*[:：]")


@pytest.fixture
def vocabulary() -> Vocabulary:
    tree = StoryTree.from_entities([CastMember(id=f"c{i}", name=name) for i, name in enumerate(CAST)])
    return collect_vocabulary(tree, INFO.vocabulary())


def _take(ins: Instruction) -> Take:
    """A take whose reading gave a chip for every field (the words as the engine read them)."""
    return Take(id="t1", node_id="n1", engine="sketch", motion_level=2, conditioning={
        "character": ins.character, "motion": "run", "location": "park", "time_of_day": "night",
        "camera": "static"})


def _keys(line: str) -> list[str]:
    """The field names of ``line``, in order."""
    return [match.group(1) for part in re.split(r"[;；]", line.rstrip(".。")) if (match := _KEY.match(part))]


def _value(ins: Instruction, field: ChipField) -> str:
    return {ChipField.CHARACTER: ins.character, ChipField.PLACE: ins.background, ChipField.TIME: ins.time_of_day,
            ChipField.CAMERA: ins.camera}.get(field, " ".join(p for p in (ins.adverb, ins.motion) if p))


@pytest.mark.parametrize(("language", "field"), [
    pytest.param(language, field, id=f"{language or 'en'}-{field.value}") for language in TURNS for field in FIELDS])
def test_a_chip_offers_words_of_the_turn_s_language_and_its_word_keeps_the_line(  # type: ignore[no-untyped-def]
        qtbot, vocabulary: Vocabulary, language: str, field: ChipField) -> None:
    before = parse_instruction(TURNS[language])
    assert turn_language(before, CAST) == language
    view = ChipsView()
    qtbot.addWidget(view)
    view.set_vocabulary(vocabulary)
    view.set_turn(before, _take(before))
    chip: Chip = next(chip for chip in view.chips if chip.field is field)
    actions = [action for action in view.menu_for(chip).actions() if action.data()]
    words = [str(action.data()) for action in actions]
    assert words, (language, field)
    if field is not ChipField.CHARACTER:  # names are offered as they are written
        assert all(scripts_in(word) <= SCRIPTS[language] for word in words), words[:8]
    assert _value(before, field) not in words  # the word already there is not offered

    with qtbot.waitSignal(view.fix_requested) as fixed:
        actions[0].trigger()  # the word closest to the author's
    line = str(fixed.args[0])
    after = parse_instruction(line)
    assert turn_language(after, CAST) == language, line
    assert _keys(line) == [key for key in _keys(TURNS[language])
                           if key != "Time"], line  # an English time is written into the background
    assert set(_keys(line)) <= set(LINE_KEYS[language]), line
    assert words[0] in _value(after, field), line
    # the engine still reads the adverb a new motion keeps, and the motion a new adverb keeps
    read_before, read_after = read_turn(before, [], list(CAST)), read_turn(after, [], list(CAST))
    if field is ChipField.MOTION:
        assert read_after.adverb == read_before.adverb, line
    if field is ChipField.LEVEL:
        assert read_after.motion.name == read_before.motion.name, line
    for other in FIELDS:
        if other is not field and {other, field} != {ChipField.MOTION, ChipField.LEVEL}:
            assert _value(after, other) == _value(before, other), (other, line)
