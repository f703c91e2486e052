"""The inspector's bookmark button while a new turn is written (QA: under a bookmarked turn,
Enter showed the draft with the parent's bookmark lit and the button on; a click turned it
off in the draft and changed nothing, the parent stayed bookmarked)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.ui.keys import press_story_key


def test_a_draft_offers_no_bookmark_and_the_new_turn_shows_its_own(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                   qtbot) -> None:
    window = make_window(sample_project)
    ws, project = window.workspace, window.session.project
    tree = project.tree
    parent = tree.child_ids(tree.root_id)[0]
    ws.select(parent)
    press_story_key(window, qtbot, Qt.Key.Key_B)
    qtbot.waitUntil(lambda: ws.inspector.bookmark.isChecked(), timeout=5000)
    assert project.tree.nodes[parent].bookmarked

    press_story_key(window, qtbot, Qt.Key.Key_Return)  # a new turn under the bookmarked one
    assert ws.inspector.draft_parent == parent
    button = ws.inspector.bookmark
    assert not button.isChecked()  # the draft is not the bookmarked parent
    assert not button.isEnabled()
    assert "once it is made" in button.toolTip()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # off: nothing happens
    assert not button.isChecked()

    editor = ws.inspector.editor
    editor.motion.setText("jump")
    qtbot.keyClick(editor.motion, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: ws.current_id not in (parent, tree.root_id) and ws.inspector.draft_parent is None,
                    timeout=10_000)
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=60_000)
    assert button.isEnabled() and not button.isChecked()  # the new turn, not bookmarked
    assert button.toolTip() == "Bookmark this turn (B)"
    assert project.tree.nodes[parent].bookmarked  # the parent's bookmark stays
    ws.select(parent)
    assert button.isEnabled() and button.isChecked()
