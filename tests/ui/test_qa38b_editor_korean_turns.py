"""The inspector's instruction editor keeps a Korean turn Korean, and offers each turn the time
words of its language.

A Korean turn edited through the fields was written back with English field names
(``Character: 민수; Motion: 걷다; ...``), and the Time box offered English words alone to a
Japanese, Chinese or Korean turn, so that a time picked there put "night" into a Korean line."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QWidget

from studio.core.instruction import TIME_CHOICES, parse_instruction, time_choices
from studio.core.model import CastMember
from studio.core.tree import StoryTree
from studio.engines.catalog.sketch import INFO
from studio.engines.sketch.understanding import read_turn
from studio.ui.inspector.instruction_editor import InstructionEditor
from studio.ui.inspector.vocabulary import collect_vocabulary

KOREAN = "캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 밤"


def _commit(widget: QWidget, text: str) -> None:
    """``text`` committed by an input method, as a Korean author types it."""
    widget.setFocus()
    event = QInputMethodEvent("", [])
    event.setCommitString(text)
    QApplication.sendEvent(widget, event)


def _editor(qtbot, names: tuple[str, ...] = ("민수",)) -> InstructionEditor:  # type: ignore[no-untyped-def]
    editor = InstructionEditor()
    qtbot.addWidget(editor)
    tree = StoryTree.from_entities([CastMember(id=f"c{i}", name=name) for i, name in enumerate(names)])
    editor.set_vocabulary(collect_vocabulary(tree, INFO.vocabulary()))
    editor.show()
    qtbot.waitExposed(editor)
    return editor


def _choices(editor: InstructionEditor) -> list[str]:
    return [editor.time.itemText(i) for i in range(editor.time.count())]


def _saved(qtbot, editor: InstructionEditor) -> str:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(editor.save_requested, timeout=3000) as saved:
        qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    line = saved.args[0]
    assert isinstance(line, str)
    return line


def test_a_korean_turn_edited_in_the_fields_keeps_its_korean_field_names(qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _editor(qtbot)
    editor.set_instruction(parse_instruction(KOREAN))
    assert editor.time.currentText() == "밤"
    editor.motion.clear()
    _commit(editor.motion, "걷다")

    line = _saved(qtbot, editor)
    assert line == "캐릭터: 민수; 동작: 걷다; 배경: 공원; 시간: 밤."
    assert editor.preview.text().replace("\u200b", "") == line
    stored = parse_instruction(line)
    assert (stored.character, stored.motion, stored.background, stored.time_of_day) == ("민수", "걷다", "공원", "밤")
    reading = read_turn(stored, [], ["민수"])
    assert (reading.motion.name, reading.location, reading.time) == ("walk", "park", "night")


def test_a_korean_name_in_an_english_turn_keeps_the_english_line(qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _editor(qtbot)
    editor.set_instruction(parse_instruction("Character: 민수; Motion: run; Background: park; Time: night"))
    # the line's own Time field is kept as written (not folded into the Background as "night park")
    assert editor.text() == "Character: 민수; Motion: run; Background: park; Time: night."
    assert _choices(editor) == ["", *TIME_CHOICES]


def test_a_korean_turn_s_time_box_offers_korean_words_and_writes_them(qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _editor(qtbot)
    editor.set_instruction(parse_instruction("캐릭터: 민수; 동작: 달리기; 배경: 공원"))
    assert _choices(editor) == ["", *time_choices("ko")]
    assert "night" not in _choices(editor)

    editor.time.setCurrentIndex(_choices(editor).index("밤"))  # chosen from the box
    line = editor.text()
    assert line == "캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 밤."
    assert "night" not in line
    editor.time.setCurrentIndex(_choices(editor).index("저녁"))
    assert "'저녁' is drawn with the low warm light of sunset." in editor.time_note.text()
    assert _saved(qtbot, editor) == "캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 저녁."


def test_the_time_box_completes_a_korean_turn_s_words(qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _editor(qtbot)
    editor.set_instruction(parse_instruction("캐릭터: 민수; 동작: 달리기; 배경: 공원"))
    time_edit = editor.time.lineEdit()
    assert time_edit is not None
    _commit(time_edit, "저")
    completer = time_edit.completer()
    assert completer is not None
    popup = completer.popup()
    assert popup is not None
    qtbot.waitUntil(popup.isVisible, timeout=3000)
    shown = [completer.completionModel().index(row, 0).data() for row in range(completer.completionCount())]
    assert shown == ["저녁"]
    assert editor.time.currentText() == "저"  # what was typed, not completed over


@pytest.mark.parametrize(("text", "language"), [
    ("キャラクター：美咲；動作：走る；背景：港", "ja"),
    ("角色：小明；动作：跑步；背景：公园", "zh"),
    ("角色：小明；動作：跑步；場景：公園", "zh-hant"),
])
def test_a_japanese_or_chinese_turn_s_time_box_offers_its_words(qtbot, text: str, language: str) -> None:  # type: ignore[no-untyped-def]
    editor = _editor(qtbot, ("美咲", "小明"))
    editor.set_instruction(parse_instruction(text))
    assert _choices(editor) == ["", *time_choices(language)]
    editor.set_instruction(parse_instruction("Character: Qiqi; Motion: run; Background: town"))
    assert _choices(editor) == ["", *TIME_CHOICES]  # an English turn keeps the English words


def test_a_time_picked_before_the_fields_turn_korean_is_written_in_korean(qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _editor(qtbot)
    editor.set_instruction(None)
    editor.time.setCurrentIndex(_choices(editor).index("night"))
    _commit(editor.character, "민수")
    assert _choices(editor) == ["", *TIME_CHOICES]  # a Korean name alone is no Korean line
    _commit(editor.motion, "달리기")
    _commit(editor.background, "공원")
    assert _choices(editor) == ["", *time_choices("ko")]
    assert editor.time.currentText() == "밤"
    assert _saved(qtbot, editor) == "캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 밤."


def test_a_korean_turn_edited_in_the_window_is_stored_korean(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    ws.select(turn)
    editor = ws.inspector.editor
    editor.set_instruction(parse_instruction(KOREAN))
    editor.motion.clear()
    _commit(editor.motion, "걷다")
    editor.save_button.click()
    window.session.settle()
    stored = window.session.project.tree.node(turn).instruction
    assert stored.raw == "캐릭터: 민수; 동작: 걷다; 배경: 공원; 시간: 밤."
    assert stored.time_of_day == "밤"
