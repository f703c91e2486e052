"""Ctrl+Z right after Fork (F) undoes the fork. Fork puts the keyboard in the new turn's
instruction field, and a text field took Ctrl+Z even with no typing of its own to undo: the
key did nothing at all (QA: F, Ctrl+Z left the fork there). A field with typing to undo
still undoes that first; the next Ctrl+Z, with none left, is the window's Undo."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from tests.ui.keys import press_story_key

CTRL = Qt.KeyboardModifier.ControlModifier


def _fork_by_key(window, qtbot):  # type: ignore[no-untyped-def]
    """Select turn 1, press F; (turn 1's id, the fork's id, the focused field)."""
    ws, session = window.workspace, window.session
    tree = session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first)
    session.settle()
    before = set(tree.nodes)
    press_story_key(window, qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: len(session.project.tree.nodes) == len(before) + 1, timeout=10_000)
    session.settle()
    fork = next(n for n in session.project.tree.nodes if n not in before)
    qtbot.waitUntil(lambda: ws.current_id == fork, timeout=5000)
    field = QApplication.focusWidget()
    assert isinstance(field, QLineEdit) and ws.inspector.isAncestorOf(field), field
    return first, fork, field


def test_ctrl_z_in_the_forks_field_undoes_the_fork(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    session = window.session
    first, fork, field = _fork_by_key(window, qtbot)

    qtbot.keyClick(field, Qt.Key.Key_Z, CTRL)
    session.settle()
    qtbot.waitUntil(lambda: fork not in session.project.tree.nodes, timeout=5000)
    qtbot.waitUntil(lambda: window.workspace.current_id == first, timeout=5000)

    focus = QApplication.focusWidget()
    assert focus is not None
    qtbot.keyClick(focus, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier)  # and Redo brings it back
    session.settle()
    qtbot.waitUntil(lambda: fork in session.project.tree.nodes, timeout=5000)


def test_typing_is_undone_first_then_the_fork(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    session = window.session
    _first, fork, field = _fork_by_key(window, qtbot)
    shown = field.text()
    qtbot.keyClicks(field, "xyz")
    assert field.text() != shown

    qtbot.keyClick(field, Qt.Key.Key_Z, CTRL)  # the field's own typing first
    session.settle()
    qtbot.wait(50)
    assert field.text() == shown
    assert fork in session.project.tree.nodes

    qtbot.keyClick(field, Qt.Key.Key_Z, CTRL)  # nothing left to undo in the field: the fork
    session.settle()
    qtbot.waitUntil(lambda: fork not in session.project.tree.nodes, timeout=5000)
