"""Notes, narration and shot notes being typed stay as typed, cursor and all, when the turn is
redrawn for a change made elsewhere (a take landing, a bookmark on another turn). The redraw
saved the typing and then showed the snapshot it was given, older than that edit: the notes box
was emptied under the cursor and the next keys were saved over what had been typed; a story
box had its text put back, its cursor at the start, where the next keys then landed."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPlainTextEdit

from studio.core.commands import SetBookmark


def _box(window, field: str) -> QPlainTextEdit:  # type: ignore[no-untyped-def]
    inspector = window.workspace.inspector
    return inspector.notes if field == "notes" else getattr(inspector.story, field)


def _stored(window, turn: str, field: str) -> str:  # type: ignore[no-untyped-def]
    node = window.session.project.tree.node(turn)
    return node.notes if field == "notes" else getattr(node.story, field)


def _type_at_the_end(qtbot, box: QPlainTextEdit, text: str) -> None:  # type: ignore[no-untyped-def]
    box.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is box, timeout=5000)
    box.moveCursor(box.textCursor().MoveOperation.End)
    qtbot.keyClicks(box, text)


@pytest.mark.parametrize("field", ["notes", "narration", "shot_notes"])
def test_typing_before_a_change_elsewhere_is_kept(make_window, sample_project: Path, qtbot, field: str) -> None:
    window = make_window(sample_project)
    session, ws = window.session, window.workspace
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    other = tree.child_ids(turn)[0]
    original = _stored(window, turn, field)
    ws.select(turn)
    box = _box(window, field)
    _type_at_the_end(qtbot, box, " abc")

    ws.apply(SetBookmark(other, True))  # a change elsewhere: the selected turn is redrawn
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.node(other).bookmarked, timeout=5000)
    qtbot.wait(50)
    session.settle()
    qtbot.wait(50)
    assert box.toPlainText() == original + " abc"
    assert box.textCursor().position() == len(original) + 4, "the cursor stays where the author typed"

    qtbot.keyClicks(box, "de")
    session.settle()
    qtbot.waitUntil(lambda: _stored(window, turn, field) == original + " abcde", timeout=5000)
    assert box.toPlainText() == original + " abcde"


@pytest.mark.parametrize("field", ["notes", "narration"])
def test_an_undo_and_a_redo_still_show_in_the_box(make_window, sample_project: Path, qtbot, field: str) -> None:
    window = make_window(sample_project)
    session, ws = window.session, window.workspace
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    original = _stored(window, turn, field)
    ws.select(turn)
    box = _box(window, field)
    _type_at_the_end(qtbot, box, " typed")
    ws.inspector.commit_edits(moving_on=False)
    session.settle()
    qtbot.waitUntil(lambda: _stored(window, turn, field) == original + " typed", timeout=5000)
    ws.undo()  # at once: the window may not have shown the edit yet
    session.settle()
    qtbot.waitUntil(lambda: box.toPlainText() == original, timeout=5000)
    ws.redo()
    session.settle()
    qtbot.waitUntil(lambda: box.toPlainText() == original + " typed", timeout=5000)
