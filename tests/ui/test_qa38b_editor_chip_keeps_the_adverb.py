"""Replacing the motion through a chip keeps the adverb written into a Japanese or Chinese
motion: ゆっくり走る replaced by 歩く became 歩く (the Korean path kept 천천히)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.core.tree import StoryTree
from studio.engines.catalog.sketch import INFO
from studio.engines.sketch.understanding import read_turn
from studio.ui.inspector.chips_view import ChipsView
from studio.ui.inspector.understanding import Chip, ChipField
from studio.ui.inspector.vocabulary import collect_vocabulary


def _view(qtbot, text: str) -> ChipsView:  # type: ignore[no-untyped-def]
    view = ChipsView()
    qtbot.addWidget(view)
    tree = StoryTree.from_entities([CastMember(id="misaki", name="美咲"), CastMember(id="ming", name="小明")])
    view.set_vocabulary(collect_vocabulary(tree, INFO.vocabulary()))
    view.set_turn(parse_instruction(text), None)
    return view


def _chosen(qtbot, view: ChipsView, chip: Chip, word: str) -> str:  # type: ignore[no-untyped-def]
    """The line asked for when ``word`` is chosen from the chip's menu."""
    menu = view.menu_for(chip)
    action = next((a for a in menu.actions() if a.data() == word), None)
    assert action is not None, [a.data() for a in menu.actions()]
    with qtbot.waitSignal(view.fix_requested, timeout=3000) as fixed:
        action.trigger()
    line = fixed.args[0]
    assert isinstance(line, str)
    return line


@pytest.mark.parametrize(("text", "motion", "word", "expected", "read_as"), [
    ("キャラクター：美咲；動作：ゆっくり走る；背景：港；時間帯：夜", "ゆっくり走る", "歩く",
     "キャラクター：美咲；動作：ゆっくり歩く；背景：港；時間帯：夜。", "walk"),
    ("角色：小明；动作：慢慢跑；背景：公园；时间：晚上", "慢慢跑", "走",
     "角色：小明；动作：慢慢走；背景：公园；时间：晚上。", "walk"),
    ("角色：小明；動作：慢慢跑步；場景：公園；時間：晚上", "慢慢跑步", "漫步",
     "角色：小明；動作：慢慢漫步；場景：公園；時間：晚上。", "walk"),
    ("角色：小明；动作：慢慢地走；背景：公园；时间：晚上", "慢慢地走", "走路",
     "角色：小明；动作：慢慢地走路；背景：公园；时间：晚上。", "walk"),
])
def test_a_motion_chosen_keeps_the_adverb_before_it(qtbot, text: str, motion: str, word: str, expected: str,  # type: ignore[no-untyped-def]
                                                     read_as: str) -> None:
    view = _view(qtbot, text)
    line = _chosen(qtbot, view, Chip(ChipField.MOTION, f"motion: {motion}", motion), word)
    assert line == expected
    reading = read_turn(parse_instruction(line), [], ["美咲", "小明"])
    assert reading.motion.name == read_as and reading.warnings == []


def test_a_motion_that_is_one_word_keeps_no_adverb(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = _view(qtbot, "角色：小明；动作：慢跑；背景：公园；时间：晚上")  # 慢跑 (jog) is no 慢 before 跑
    line = _chosen(qtbot, view, Chip(ChipField.MOTION, "motion: 慢跑", "慢跑"), "走")
    assert line == "角色：小明；动作：走；背景：公园；时间：晚上。"


def test_an_adverb_chosen_replaces_the_one_written_in_the_motion(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = _view(qtbot, "キャラクター：美咲；動作：ゆっくり走る；背景：港；時間帯：夜")
    line = _chosen(qtbot, view, Chip(ChipField.LEVEL, "manner: slowly", "ゆっくり"), "そっと")
    assert line == "キャラクター：美咲；動作：そっと走る；背景：港；時間帯：夜。"
