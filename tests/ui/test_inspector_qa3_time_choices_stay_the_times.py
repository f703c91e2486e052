"""The instruction editor's Time box offers the times of day, and the shown turn's own word:
each turn shown with a time word of its own (``Time: 3pm``, ``Time: teatime``) added it to the
choices for good, so every later turn offered the words of turns shown before it."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from studio.core.instruction import parse_instruction
from studio.ui.inspector.instruction_editor import InstructionEditor
from studio.ui.inspector.vocabulary import TIMES


def _choices(editor: InstructionEditor) -> list[str]:
    return [editor.time.itemText(i) for i in range(editor.time.count())]


def test_a_turn_s_own_time_word_is_offered_only_while_it_is_shown(qtbot) -> None:  # type: ignore[no-untyped-def]
    host = QWidget()
    qtbot.addWidget(host)
    editor = InstructionEditor(host)
    editor.set_instruction(parse_instruction("Character: Qiqi; Motion: run; Background: town; Time: 3pm"))
    assert editor.time.currentText() == "3pm"
    editor.set_instruction(parse_instruction("Character: Qiqi; Motion: run; Background: town; Time: teatime"))
    assert editor.time.currentText() == "teatime"
    assert "3pm" not in _choices(editor)
    editor.set_instruction(parse_instruction("Character: Qiqi; Motion: run; Background: night town"))
    assert editor.time.currentText() == "night"
    assert _choices(editor) == ["", *TIMES]


def test_enter_in_the_time_box_adds_no_choice(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    host = QWidget()
    qtbot.addWidget(host)
    editor = InstructionEditor(host)
    editor.set_instruction(parse_instruction("Character: Qiqi; Motion: run; Background: town"))
    line = editor.time.lineEdit()
    assert line is not None
    line.setText("brunch")
    qtbot.keyClick(line, Qt.Key.Key_Return)
    assert editor.time.currentText() == "brunch"
    assert _choices(editor) == ["", *TIMES]
