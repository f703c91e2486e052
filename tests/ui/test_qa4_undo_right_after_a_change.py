"""Ctrl+Z pressed right after a change, before the window has heard of it. The window applies
changes through the writer and learned of each a moment later: on a project with nothing to
undo yet, Undo was still off when Ctrl+Z came right after Fork (F), Delete or Bookmark (B),
and the key did nothing; Ctrl+Shift+Z right after Ctrl+Z met a Redo still off the same way.
The keys here are pressed one after the other with no event processed in between, as a quick
hand does before the change comes back."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

Key = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _first_turn_window(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    ws.select(turn, center=False)
    window.session.settle()
    assert window.session.project.document.history.undo_label is None, "a project just opened has nothing to undo"
    assert not window.actions_.undo.isEnabled()
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    return window, turn


def _settle(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.session.settle()
    qtbot.waitUntil(lambda: not any(window.session.edits_in_flight.values()), timeout=5000)
    window.session.settle()


def test_ctrl_z_right_after_a_fork_takes_the_fork_back(make_window, sample_project: Path, qtbot) -> None:
    window, turn = _first_turn_window(make_window, sample_project, qtbot)
    project = window.session.project
    alternatives = list(project.tree.child_ids(project.tree.nodes[turn].parent_id or ""))
    qtbot.keyClick(window.workspace.view, Key.Key_F)
    assert window.session.edits_in_flight["edit"] == 1, "the fork is sent; the window has not heard of it"
    qtbot.keyClick(window.focusWidget(), Key.Key_Z, CTRL)  # the fork's instruction field has the focus
    _settle(window, qtbot)
    assert list(project.tree.child_ids(project.tree.nodes[turn].parent_id or "")) == alternatives
    assert window.status_label.text().startswith("Undo Fork turn"), window.status_label.text()
    assert window.workspace.current_id == turn
    assert window.actions_.redo.isEnabled() and window.actions_.redo.text() == "&Redo Fork turn"


def test_ctrl_z_right_after_a_delete_brings_the_turns_back(make_window, sample_project: Path, qtbot) -> None:
    window, _turn = _first_turn_window(make_window, sample_project, qtbot)
    project = window.session.project
    turns = set(project.tree.nodes)
    qtbot.keyClick(window.workspace.view, Key.Key_Delete)  # the test window's question answers yes
    assert window.session.edits_in_flight["edit"] == 1, "the delete is sent; the window has not heard of it"
    qtbot.keyClick(window.workspace.view, Key.Key_Z, CTRL)
    _settle(window, qtbot)
    assert set(project.tree.nodes) == turns
    assert window.status_label.text().startswith("Undo Delete turns"), window.status_label.text()


def test_ctrl_shift_z_right_after_ctrl_z_redoes(make_window, sample_project: Path, qtbot) -> None:
    window, turn = _first_turn_window(make_window, sample_project, qtbot)
    project = window.session.project
    view = window.workspace.view
    qtbot.keyClick(view, Key.Key_B)
    qtbot.keyClick(view, Key.Key_Z, CTRL)
    qtbot.keyClick(view, Key.Key_Z, CTRL | SHIFT)
    _settle(window, qtbot)
    assert project.tree.nodes[turn].bookmarked, "bookmarked, undone, then redone"
    assert window.actions_.undo.text() == "&Undo Bookmark" and not window.actions_.redo.isEnabled()
