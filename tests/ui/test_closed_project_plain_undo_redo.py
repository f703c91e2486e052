"""With no project open the greyed Edit menu reads plain "Undo" / "Redo". (QA: after closing a
project it still named the closed project's edits, "Undo Bookmark", "Redo Bookmark".)"""

from __future__ import annotations

from pathlib import Path


def test_closing_a_project_leaves_plain_undo_and_redo(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    a, ws, history = window.actions_, window.workspace, window.session.project.document.history
    ws.toggle_bookmark()  # the start is bookmarked: "Undo Bookmark"
    qtbot.waitUntil(lambda: a.undo.text() == "&Undo Bookmark", timeout=5000)
    ws.toggle_bookmark()
    qtbot.waitUntil(lambda: history.undo_label == "Bookmark" and a.undo.isEnabled(), timeout=5000)
    ws.undo()  # one undone: "Redo Bookmark" too
    qtbot.waitUntil(lambda: a.redo.text() == "&Redo Bookmark" and a.undo.text() == "&Undo Bookmark", timeout=5000)

    assert window.close_project("cancel")
    assert (a.undo.text(), a.redo.text()) == ("&Undo", "&Redo")
    assert not a.undo.isEnabled() and not a.redo.isEnabled()
    edit_menu = [action.text() for action in window.menus["Edit"].actions()]
    assert "&Undo" in edit_menu and "&Redo" in edit_menu
    assert a.undo.iconText() == "Undo" and a.redo.iconText() == "Redo"  # the toolbar's words too

    assert window.open_project(sample_project)  # open again: the edits of this session are not undoable
    assert (a.undo.text(), a.redo.text()) == ("&Undo", "&Redo")
