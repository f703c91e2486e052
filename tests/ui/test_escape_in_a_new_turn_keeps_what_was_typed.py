"""Esc in a new turn's editor closes it, but keeps what was typed for the next new turn under
the same turn: a long instruction lost to a reflex Esc could not be had again. A draft holding
only its prefilled character and place is still dropped at once."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.ui.workspace import DRAFT_DROPPED, DRAFT_EMPTY_DROPPED, DRAFT_RESUMED


def _new_turn(workspace, node_id: str) -> None:  # type: ignore[no-untyped-def]
    workspace.select(node_id, center=False)
    workspace.view.setFocus()
    QTest.keyClick(workspace.view, Qt.Key.Key_Return)
    assert workspace.inspector.draft_parent == node_id


def _opened(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    """The window on the sample story, its workspace, the story, the first branch's last turn
    and the instruction editor."""
    window = make_window(sample_project)
    tree = window.session.project.tree
    return window, window.workspace, tree, tree.leaves_under(tree.root_id)[0].id, window.workspace.inspector.editor


def _escape(workspace, qtbot) -> None:  # type: ignore[no-untyped-def]
    QTest.keyClick(workspace.inspector.editor.motion, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: workspace.inspector.draft_parent is None, timeout=5_000)


def test_typing_comes_back_in_the_next_new_turn_under_the_same_turn(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot) -> None:
    window, workspace, tree, leaf, editor = _opened(make_window, sample_project)
    _new_turn(workspace, leaf)
    QTest.keyClicks(editor.motion, "slowly climbs the clock tower")
    QTest.keyClicks(editor.free_text, "pigeons scatter")
    typed = editor.text()
    _escape(workspace, qtbot)
    assert window.status_label.text() == DRAFT_DROPPED
    assert len(window.session.project.tree.nodes) == len(tree.nodes)  # nothing was added

    other = tree.root_id  # a new turn elsewhere starts afresh
    _new_turn(workspace, other)
    assert "clock tower" not in editor.text()
    _escape(workspace, qtbot)

    _new_turn(workspace, leaf)
    assert editor.text() == typed
    assert editor.motion.text() == "slowly climbs the clock tower"
    assert window.status_label.text() == DRAFT_RESUMED


def test_a_draft_with_nothing_typed_is_dropped(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window, workspace, _tree, leaf, editor = _opened(make_window, sample_project)
    _new_turn(workspace, leaf)
    prefilled = editor.text()
    _escape(workspace, qtbot)
    assert window.status_label.text() == DRAFT_EMPTY_DROPPED
    assert workspace.current_id == leaf and workspace.view.hasFocus()
    _new_turn(workspace, leaf)
    assert editor.text() == prefilled
    assert window.status_label.text().startswith("New turn: describe it")


def test_a_generated_draft_is_not_brought_back(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Typing put aside, brought back and then generated is used up: the next new turn under
    that turn starts afresh."""
    window, workspace, _tree, leaf, editor = _opened(make_window, sample_project)
    _new_turn(workspace, leaf)
    QTest.keyClicks(editor.motion, "waves goodbye")
    _escape(workspace, qtbot)
    _new_turn(workspace, leaf)
    assert editor.motion.text() == "waves goodbye"
    count = len(window.session.project.tree.nodes)
    QTest.keyClick(editor.motion, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(window.session.project.tree.nodes) == count + 1, timeout=10_000)
    qtbot.waitUntil(lambda: workspace.inspector.draft_parent is None, timeout=5_000)
    _new_turn(workspace, leaf)
    assert "waves goodbye" not in editor.text()
