"""F then Ctrl+Z gives the keyboard back to the tree (QA: Fork put the keyboard in the new
turn's instruction field; Ctrl+Z undid the fork and left the keyboard in the instruction field
of the turn selected instead, so the arrow keys moved the text cursor, not the selection)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.keys import press_story_key


def test_undoing_a_fork_by_key_gives_the_keyboard_back_to_the_tree(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                   qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    press_story_key(window, qtbot, Qt.Key.Key_Right)
    assert ws.current_id == first
    press_story_key(window, qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: len(session.project.tree.child_ids(tree.root_id)) == 2, timeout=10_000)
    fork = session.project.tree.child_ids(tree.root_id)[1]
    qtbot.waitUntil(lambda: ws.current_id == fork, timeout=5000)
    field = QApplication.focusWidget()
    assert field is not None and ws.inspector.isAncestorOf(field)

    qtbot.keyClick(field, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: fork not in session.project.tree.nodes and ws.current_id == first, timeout=5000)
    assert QApplication.focusWidget() is ws.view
    qtbot.keyClick(ws.view, Qt.Key.Key_Right)  # the arrows walk the tree again
    assert ws.current_id == session.project.tree.child_ids(first)[0]


def test_a_turn_deleted_by_key_keeps_the_keyboard_on_the_tree(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                              qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    press_story_key(window, qtbot, Qt.Key.Key_End)
    leaf = ws.current_id
    parent = tree.nodes[leaf].parent_id
    press_story_key(window, qtbot, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: ws.current_id == parent, timeout=5000)
    assert QApplication.focusWidget() is ws.view
    qtbot.keyClick(ws.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: ws.current_id == leaf, timeout=5000)
    assert QApplication.focusWidget() is ws.view
