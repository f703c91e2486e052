"""A Traditional Chinese turn keeps its Traditional field names when a chip's menu puts in a
word common to both scripts.

``場景：公園`` with its place replaced by 後院 (no Traditional-only character) was written back
as ``角色：…；动作：…；背景：后院；时间：…``: the line's language was worked out from its words
alone, and the turn's own Traditional script was dropped.
"""

from __future__ import annotations

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.core.sentence import TRADITIONAL_ONLY_CHARS
from studio.core.tree import StoryTree
from studio.engines.catalog.sketch import INFO
from studio.ui.inspector.chips_view import ChipsView, replace_field, turn_language
from studio.ui.inspector.instruction_editor import LINE_KEYS, compose_instruction
from studio.ui.inspector.understanding import ChipField
from studio.ui.inspector.vocabulary import collect_vocabulary

TRADITIONAL = "角色：小明；動作：跑步；場景：公園；時間：晚上"
COMMON_PLACE = "後院"


def _keys(line: str) -> list[str]:
    return [part.split("：", 1)[0] for part in line.rstrip("。").split("；")]


def test_the_new_place_has_no_traditional_only_character() -> None:
    # the case the fix is about: the words alone can't tell the script
    assert not any(char in TRADITIONAL_ONLY_CHARS for char in "小明跑步" + COMMON_PLACE + "晚上")
    assert turn_language(parse_instruction(TRADITIONAL)) == "zh-hant"


def test_replacing_the_place_keeps_traditional_field_names() -> None:
    line = replace_field(parse_instruction(TRADITIONAL), ChipField.PLACE, COMMON_PLACE)
    assert _keys(line) == ["角色", "動作", "場景", "時間"], line
    assert line == "角色：小明；動作：跑步；場景：後院；時間：晚上。"
    assert turn_language(parse_instruction(line)) == "zh-hant"  # and it stays so for the next edit


def test_a_simplified_turn_is_still_written_in_simplified() -> None:
    simplified = parse_instruction("角色：小明；动作：跑步；背景：公园；时间：晚上")
    line = replace_field(simplified, ChipField.PLACE, COMMON_PLACE)
    assert _keys(line) == list(LINE_KEYS["zh"][:4]), line


def test_composing_with_the_traditional_hint() -> None:
    line = compose_instruction("小明", "跑步", COMMON_PLACE, "晚上", language="zh-hant")
    assert _keys(line) == list(LINE_KEYS["zh-hant"][:4]), line


def test_the_chip_menu_writes_the_traditional_line(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = ChipsView()
    qtbot.addWidget(view)
    tree = StoryTree.from_entities([CastMember(id="xiaoming", name="小明")])
    view.set_vocabulary(collect_vocabulary(tree, INFO.vocabulary()))
    view.set_turn(parse_instruction(TRADITIONAL), None)
    asked: list[str] = []
    view.fix_requested.connect(asked.append)
    view.fix(ChipField.PLACE, COMMON_PLACE)
    assert len(asked) == 1 and _keys(asked[0]) == ["角色", "動作", "場景", "時間"], asked
