"""A time word typed in the Background field is the turn's time: it moves into the Time box
and the line says it once. It was written beside the Time box's word: "night park" with
Time "night" (carried from the turn before) was stored as "Background: night night park.",
with Time "day" as "day night park", and "夜の公園" as "day 夜の公園", with no word said."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from studio.core import AddTurn, Document, StoryTree
from studio.core.instruction import Instruction, parse_instruction
from studio.core.model import CastMember, Node
from studio.ui.inspector.inspector import Inspector
from studio.ui.inspector.instruction_editor import InstructionEditor, compose_instruction
from studio.ui.media_cache import ClipCache


def _editor(qtbot) -> InstructionEditor:  # type: ignore[no-untyped-def]
    editor = InstructionEditor()
    qtbot.addWidget(editor)
    editor.show()
    return editor


def _type_background(qtbot, editor: InstructionEditor, text: str) -> None:  # type: ignore[no-untyped-def]
    editor.background.setFocus()
    editor.background.selectAll()
    editor.background.insert(text)  # as typed or pasted (an input method's words too)


@pytest.mark.parametrize(("time", "background", "expected_time"), [
    ("night", "night park", "night"),
    ("day", "night park", "night"),
    ("", "park at night", "night"),
    ("day", "夜の公園", "夜"),
    ("", "公园的晚上", "晚上"),
])
def test_a_time_word_in_the_background_is_said_once(qtbot, time: str, background: str,  # type: ignore[no-untyped-def]
                                                    expected_time: str) -> None:
    editor = _editor(qtbot)
    editor.set_instruction(parse_instruction(f"Character: Qiqi; Motion: happily wave; Time: {time}" if time
                                             else "Character: Qiqi; Motion: happily wave"))
    _type_background(qtbot, editor, background)
    line = editor.text()
    read = parse_instruction(line)
    assert read.time_of_day == expected_time, line
    assert expected_time not in read.background, f"the time is said twice in {line!r}"
    assert "day" not in line or expected_time == "day", f"two times of day in {line!r}"
    assert editor.generate_button.isEnabled()


def test_the_word_moves_into_the_time_box_and_the_note_says_what_it_replaced(qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _editor(qtbot)
    editor.set_instruction(parse_instruction("Character: Qiqi; Motion: happily wave; Background: day town"))
    assert editor.time.currentText() == "day"
    _type_background(qtbot, editor, "night park")
    assert "replaces 'day'" in editor.time_note.text(), "told before it moves"
    assert not editor.time_note.isHidden()
    qtbot.keyClick(editor.background, Qt.Key.Key_Return)  # done with Background (as when it loses the focus)
    assert editor.background.text() == "park"
    assert editor.time.currentText() == "night"
    assert "replaced 'day'" in editor.time_note.text()
    assert editor.text() == "Character: Qiqi; Motion: happily wave; Background: night park."
    editor.time.setCurrentText("sunset")  # the author's own choice: nothing more to tell about it
    assert "replaced" not in editor.time_note.text()


def test_a_stored_doubled_time_shows_once(qtbot) -> None:  # type: ignore[no-untyped-def]
    editor = _editor(qtbot)
    editor.set_instruction(parse_instruction("Character: Qiqi; Motion: happily wave; Background: night night park."))
    assert (editor.background.text(), editor.time.currentText()) == ("park", "night")
    assert editor.text() == "Character: Qiqi; Motion: happily wave; Background: night park."


def test_compose_and_background_time_read_every_language() -> None:
    from studio.ui.inspector.instruction_editor import background_time

    assert background_time("夜の公園") == ("夜", "公園")
    assert background_time("公園の夕方") == ("夕方", "公園")
    assert background_time("夕日ヶ丘") == ("", "夕日ヶ丘"), "a place whose name starts with a time word stays"
    assert background_time("nightclub") == ("", "nightclub")
    assert compose_instruction("美咲", "歩く", "夜の公園", "昼") == \
        "キャラクター：美咲；動作：歩く；背景：公園；時間帯：夜。"
    assert compose_instruction("Qiqi", "wave", "night park", "night") == \
        "Character: Qiqi; Motion: wave; Background: night park."


def test_a_new_turn_after_a_night_turn_is_written_with_one_night(qtbot) -> None:  # type: ignore[no-untyped-def]
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""))
    document = Document(StoryTree.from_entities([root, CastMember("c1", "Qiqi")]))
    document.apply(AddTurn("root", "Character: Qiqi; Motion: run; Background: night town", node_id="q1"))
    inspector = Inspector(ClipCache(), str)
    qtbot.addWidget(inspector)
    inspector.show()
    inspector.show_draft(document.tree, "q1")
    editor = inspector.editor
    assert editor.time.currentText() == "" and editor.time.lineEdit().placeholderText() == "night (as before)"
    editor.motion.setText("happily wave")
    _type_background(qtbot, editor, "night park")
    sent: list[tuple[str, str]] = []
    inspector.generate_requested.connect(lambda target, text: sent.append((target, text)))
    qtbot.keyClick(editor.background, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert sent == [("q1", "Motion: happily wave; Background: night park.")]
    document.apply(AddTurn("q1", sent[0][1], node_id="q2"))
    inspector.show_draft(document.tree, "q2")  # the next turn goes on from it: one night still
    assert (editor.background.placeholderText(), editor.time.lineEdit().placeholderText()) == \
        ("park (as before)", "night (as before)")
    assert editor.text() == ""
