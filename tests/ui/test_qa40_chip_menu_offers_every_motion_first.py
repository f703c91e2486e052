"""A motion chip's menu offers one word of each motion before a motion's synonyms: cut to its
first two dozen words, the Chinese menu for 慢慢跑 held seventeen words of the idle (站, 站着,
等待, 发呆, 放松…) and no walk at all."""

from __future__ import annotations

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.core.tree import StoryTree
from studio.engines.catalog.sketch import INFO
from studio.engines.sketch.understanding import read_turn
from studio.ui.inspector.chips_view import ChipsView
from studio.ui.inspector.understanding import Chip, ChipField
from studio.ui.inspector.vocabulary import collect_vocabulary


def _menu_words(qtbot, text: str, motion: str) -> list[str]:  # type: ignore[no-untyped-def]
    view = ChipsView()
    qtbot.addWidget(view)
    tree = StoryTree.from_entities([CastMember(id="ming", name="小明"), CastMember(id="misaki", name="美咲")])
    view.set_vocabulary(collect_vocabulary(tree, INFO.vocabulary()))
    view.set_turn(parse_instruction(text), None)
    menu = view.menu_for(Chip(ChipField.MOTION, f"motion: {motion}", motion))
    return [str(action.data()) for action in menu.actions() if action.data()]


def _motions(words: list[str], language_text: str) -> list[str]:
    return [read_turn(parse_instruction(language_text.format(word)), [], ["小明", "美咲"]).motion.name
            for word in words]


def test_the_chinese_menu_offers_many_motions_and_walk_among_them(qtbot) -> None:  # type: ignore[no-untyped-def]
    words = _menu_words(qtbot, "角色：小明；动作：慢慢跑；背景：公园；时间：晚上", "慢慢跑")
    motions = _motions(words, "角色：小明；动作：{}；背景：公园")
    assert "walk" in motions
    assert motions.count("idle") <= 3, list(zip(words, motions, strict=True))
    assert len(set(motions)) >= 15, list(zip(words, motions, strict=True))


def test_the_japanese_menu_offers_many_motions(qtbot) -> None:  # type: ignore[no-untyped-def]
    words = _menu_words(qtbot, "キャラクター：美咲；動作：ゆっくり走る；背景：港；時間帯：夜", "ゆっくり走る")
    motions = _motions(words, "キャラクター：美咲；動作：{}；背景：港")
    assert "walk" in motions and len(set(motions)) >= 15, list(zip(words, motions, strict=True))
