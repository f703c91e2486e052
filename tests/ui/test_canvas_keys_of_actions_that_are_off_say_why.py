"""The story area's keys of a turn action that is off say why in the status bar, as Ctrl+Enter
on the start does (QA: Delete, R, F or B on the Start card, or Alt+Up on a turn without
alternatives, did nothing without a word: a keyboard user could not tell the key was heard)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.ui.keys import press_story_key

Key = Qt.Key


def test_keys_of_actions_that_are_off_say_why(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    said: list[str] = []
    ws.message.connect(said.append)
    nodes = len(ws.tree.nodes)
    assert ws.current_id == ws.tree.root_id
    expected = {
        Key.Key_Delete: "The start of the story can't be deleted: select a turn.",
        Key.Key_F: "The start of the story can't be forked: select a turn.",
        Key.Key_R: "The start of the story can't be re-rolled: select a turn.",
        Key.Key_B: "The start of the story can't be bookmarked (Home goes back to it): select a turn.",
    }
    for key, why in expected.items():
        said.clear()
        press_story_key(window, qtbot, key)
        assert said == [why], key.name
    window.session.settle()
    assert len(window.session.project.tree.nodes) == nodes and not ws.tree.nodes[ws.tree.root_id].bookmarked

    press_story_key(window, qtbot, Key.Key_Right)  # turn 1: no alternatives
    said.clear()
    ws.view.setFocus()
    qtbot.keyClick(ws.view, Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert said == ["This turn has no alternatives to move among: Fork (F) makes one."]

    said.clear()
    press_story_key(window, qtbot, Key.Key_B)  # on: it bookmarks, and says nothing of being off
    qtbot.waitUntil(lambda: window.session.project.tree.nodes[ws.current_id].bookmarked, timeout=5000)
    assert not any("can't" in text for text in said)
