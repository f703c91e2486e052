"""An instruction the document refuses (Save text or Generate with a line over 2,000
characters, a place given twice) stays in the editor for the user to fix. (QA: the error
was shown, but the next redraw of the turn — a bookmark, a note saved, a job's progress —
put the stored line back over the typed one, which was lost.)"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt


def _turn_with_errors(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    errors: list[str] = []
    window.show_error = lambda error: errors.append(error.message)  # type: ignore[method-assign]
    ws = window.workspace
    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(turn)
    return window, ws, turn, errors


def test_a_refused_save_keeps_the_typed_line_through_a_redraw(make_window, sample_project: Path, qtbot) -> None:
    window, ws, turn, errors = _turn_with_errors(make_window, sample_project)
    editor = ws.inspector.editor
    stored = ws.tree.nodes[turn].instruction.raw
    editor.free_text.setText("and then " * 240)  # over the 2,000 characters an instruction may hold
    typed = editor.text()
    assert not editor.save_button.isEnabled(), "a line too long to keep can't be sent"
    assert "limit is 2,000" in editor.save_button.toolTip()  # the button says why
    editor._save()  # sent anyway (the keyboard's way): refused with the whole message
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    assert "limit is 2,000" in errors[0]
    assert ws.tree.nodes[turn].instruction.raw == stored

    ws.view.setFocus()
    qtbot.keyClick(ws.view, Qt.Key.Key_B)  # an edit of the same turn redraws the inspector
    qtbot.waitUntil(lambda: ws.tree.nodes[turn].bookmarked, timeout=10_000)
    window.session.settle()
    qtbot.wait(100)
    assert editor.text() == typed, "the refused line was replaced by the stored one"

    editor.free_text.setText("and then a nap")  # fixed: it saves
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.tree.nodes[turn].instruction.raw == editor.text(), timeout=10_000)
    assert len(errors) == 1


def test_a_refused_generate_keeps_the_typed_line(make_window, sample_project: Path, qtbot) -> None:
    window, ws, turn, errors = _turn_with_errors(make_window, sample_project)
    editor = ws.inspector.editor
    editor.free_text.setText("Background: night bakery")  # a second place: refused
    typed = editor.text()
    qtbot.mouseClick(editor.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    assert "place twice" in errors[0]
    ws.inspector.notes.setPlainText("check the place")  # a note saved redraws the turn
    ws.inspector.commit_notes()
    qtbot.waitUntil(lambda: ws.tree.nodes[turn].notes == "check the place", timeout=10_000)
    window.session.settle()
    qtbot.wait(100)
    assert editor.text() == typed
    assert not window.session.active_jobs(), "nothing was generated from a refused line"
    other = ws.tree.child_ids(turn)[0]
    ws.select(other)  # moving on does not send the refused line again (one warning is enough)
    window.session.settle()
    qtbot.wait(100)
    assert len(errors) == 1
