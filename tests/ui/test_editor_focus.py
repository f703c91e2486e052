"""The keyboard after the instruction editor: Ctrl+Enter on a turn (a fork's, or an existing
one) hands the focus back to the tree as a new turn's Ctrl+Enter does; Esc in the editor's
fields goes back to the tree too, and still drops a draft."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.keys import press_story_key


def _window_on_a_turn(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    window.session.service.pause()  # jobs stay queued: the tests are about the keyboard
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    window.workspace.select(first)
    qtbot.waitUntil(lambda: window.workspace.inspector.node_id == first, timeout=5000)
    return window, first


def _type_in_motion(window, qtbot, text: str) -> None:  # type: ignore[no-untyped-def]
    editor = window.workspace.inspector.editor
    qtbot.mouseClick(editor.motion, Qt.MouseButton.LeftButton)
    editor.motion.setFocus()
    qtbot.waitUntil(editor.motion.hasFocus, timeout=5000)
    editor.motion.selectAll()
    qtbot.keyClicks(editor.motion, text)


def _queued_for(window, node_id: str) -> int:  # type: ignore[no-untyped-def]
    window.session.settle()
    return sum(1 for job in window.session.service.jobs() if job.node_id == node_id)


def test_ctrl_enter_on_a_turn_returns_the_focus_to_the_tree(make_window, sample_project: Path, qtbot) -> None:
    window, first = _window_on_a_turn(make_window, sample_project, qtbot)
    view = window.workspace.view
    _type_in_motion(window, qtbot, "slowly wave")
    qtbot.keyClick(window.workspace.inspector.editor.motion, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: _queued_for(window, first) == 1, timeout=5000)
    qtbot.waitUntil(view.hasFocus, timeout=5000)
    assert "slowly wave" in window.session.project.tree.node(first).instruction.raw
    press_story_key(window, qtbot, Qt.Key.Key_Right)  # the story keys work again at once
    assert window.workspace.current_id != first


def test_fork_type_ctrl_enter_returns_the_focus_to_the_tree(make_window, sample_project: Path, qtbot) -> None:
    window, first = _window_on_a_turn(make_window, sample_project, qtbot)
    ws = window.workspace
    press_story_key(window, qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: ws.current_id != first and ws.inspector.node_id == ws.current_id, timeout=5000)
    fork = ws.current_id
    _type_in_motion(window, qtbot, "jump over the fence")
    qtbot.keyClick(ws.inspector.editor.motion, Qt.Key.Key_Enter, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: _queued_for(window, fork) == 1, timeout=5000)
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)


def test_generate_caught_by_the_editor_itself_returns_the_focus_too(make_window, sample_project: Path,
                                                                    qtbot) -> None:
    window, first = _window_on_a_turn(make_window, sample_project, qtbot)
    window.actions_.generate.setEnabled(False)  # the shortcut can't fire: the editor's own key handling
    _type_in_motion(window, qtbot, "sit down")
    qtbot.keyClick(window.workspace.inspector.editor.motion, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: _queued_for(window, first) == 1, timeout=5000)
    qtbot.waitUntil(window.workspace.view.hasFocus, timeout=5000)


def test_escape_in_an_editor_field_returns_the_focus_to_the_tree(make_window, sample_project: Path, qtbot) -> None:
    window, first = _window_on_a_turn(make_window, sample_project, qtbot)
    ws = window.workspace
    editor = ws.inspector.editor
    for field in (editor.character, editor.motion, editor.time, editor.free_text):
        field.setFocus()
        qtbot.waitUntil(field.hasFocus, timeout=5000)
        qtbot.keyClick(field, Qt.Key.Key_Escape)
        qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    assert ws.current_id == first and ws.inspector.node_id == first  # still on the turn
    _type_in_motion(window, qtbot, "run home")
    qtbot.keyClick(editor.motion, Qt.Key.Key_Escape)
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    assert "run home" in editor.text()  # Esc leaves what was typed (moving on keeps it)
    assert _queued_for(window, first) == 0


def test_escape_still_drops_a_draft(make_window, sample_project: Path, qtbot) -> None:
    window, first = _window_on_a_turn(make_window, sample_project, qtbot)
    ws = window.workspace
    nodes = len(window.session.project.tree.nodes)
    press_story_key(window, qtbot, Qt.Key.Key_Return)
    assert ws.inspector.draft_parent == first
    qtbot.waitUntil(lambda: ws.inspector.editor.isAncestorOf(QApplication.focusWidget()), timeout=5000)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    assert ws.inspector.draft_parent is None and ws.inspector.node_id == first
    assert len(window.session.project.tree.nodes) == nodes


def test_generate_with_nothing_typed_says_what_to_do(make_window, sample_project: Path, qtbot) -> None:
    """Ctrl+Enter at the Start (where a first turn is typed) with an empty editor did nothing.
    Generate is off there now, and its keys say why (tests/ui/test_generate_off_at_the_start.py)."""
    window = make_window(sample_project)
    ws = window.workspace
    ws.select(ws.tree.root_id)
    qtbot.waitUntil(lambda: ws.inspector.node_id == ws.tree.root_id, timeout=5000)
    assert not ws.inspector.editor.text().strip()
    before = len(window.session.service.jobs())
    assert not window.actions_.generate.isEnabled()
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    qtbot.keyClick(ws.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert "Nothing to generate" in window.status_label.text()
    assert len(window.session.service.jobs()) == before
