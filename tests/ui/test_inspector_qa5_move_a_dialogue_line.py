"""Dialogue lines can be reordered in the inspector (QA: lines could only be added or removed,
so putting one earlier meant deleting and retyping every line after it): Alt+Up and Alt+Down
in a line's boxes move it, as one undoable edit, and the focus stays in the moved line."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.core.commands import SetDialogue
from studio.core.story import DialogueLine

LINES = (DialogueLine("Qiqi", "One."), DialogueLine("Yuzu", "Two."), DialogueLine("Qiqi", "Three."))


def _texts(session, turn: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [line.text for line in session.project.tree.nodes[turn].story.dialogue]


def test_alt_up_and_down_move_a_line_and_undo_puts_it_back(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    turn = session.project.tree.child_ids(session.project.tree.root_id)[0]
    ws.apply(SetDialogue(turn, LINES))
    session.settle()
    ws.select(turn, center=False)
    story = ws.inspector.story
    qtbot.waitUntil(lambda: [row.line().text for row in story.rows] == ["One.", "Two.", "Three."], timeout=5000)
    third = story.rows[2]
    third.text.setFocus()
    qtbot.keyClick(third.text, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    session.settle()
    qtbot.waitUntil(lambda: _texts(session, turn) == ["One.", "Three.", "Two."], timeout=5000)
    assert [row.line().text for row in story.rows] == ["One.", "Three.", "Two."]
    assert story.rows[1] is third and third.text.hasFocus()
    line_edit = third.speaker.lineEdit()
    assert line_edit is not None
    qtbot.keyClick(line_edit, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)  # from the speaker box too
    session.settle()
    qtbot.waitUntil(lambda: _texts(session, turn) == ["One.", "Two.", "Three."], timeout=5000)
    qtbot.keyClick(third.text, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)  # already last: nothing
    session.settle()
    assert _texts(session, turn) == ["One.", "Two.", "Three."]
    window.actions_.undo.trigger()  # each move is one step
    session.settle()
    qtbot.waitUntil(lambda: _texts(session, turn) == ["One.", "Three.", "Two."], timeout=5000)
