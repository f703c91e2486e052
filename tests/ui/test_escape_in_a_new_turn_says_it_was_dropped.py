"""Esc in a new turn's editor closes the draft, and the status bar says so (what was typed in
it is put aside for the next new turn under the same turn: test_escape_in_a_new_turn_keeps_what_was_typed).

It went on reading "New turn: describe it, then Generate (Ctrl+Enter)." about a turn that was
no longer there, as if the draft were still waiting to be written.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.ui.workspace import DRAFT_DROPPED


def test_escape_drops_the_draft_and_says_so(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    workspace = window.workspace
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    workspace.select(leaf, center=False)
    workspace.view.setFocus()
    QTest.keyClick(workspace.view, Qt.Key.Key_Return)
    editor = workspace.inspector.editor
    assert workspace.inspector.draft_parent == leaf
    assert window.status_label.text().startswith("New turn: describe it")
    QTest.keyClicks(editor.motion, "walk")
    QTest.keyClick(editor.motion, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: workspace.inspector.draft_parent is None, timeout=5_000)
    assert window.status_label.text() == DRAFT_DROPPED
    assert len(window.session.project.tree.nodes) == len(tree.nodes)
    assert workspace.current_id == leaf and workspace.view.hasFocus()
