"""With Find open, an edit (a note saved after typing) refreshes the matches but keeps the turn
the user stepped to, so typing goes on into that turn's notes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt


def test_an_edit_with_find_open_keeps_the_selected_match(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    workspace, project = window.workspace, window.session.project
    window.actions_.find.trigger()
    qtbot.keyClicks(workspace.search.edit, "qiqi")
    qtbot.wait(50)
    qtbot.keyClick(workspace.search.edit, Qt.Key.Key_Return)
    qtbot.keyClick(workspace.search.edit, Qt.Key.Key_Return)
    target = workspace.current_id
    place = workspace.matches.index(target)
    assert place > 0
    label = workspace.search.count.text()
    workspace.inspector.notes.setFocus()
    qtbot.keyClicks(workspace.inspector.notes, "check the lighting")
    qtbot.wait(1000)
    window.session.settle()
    qtbot.wait(200)
    assert workspace.current_id == target and workspace.search.count.text() == label
    qtbot.keyClicks(workspace.inspector.notes, " and sound")
    qtbot.wait(1000)
    window.session.settle()
    qtbot.wait(200)
    assert project.tree.node(target).notes == "check the lighting and sound"
    qtbot.keyClick(workspace.search.edit, Qt.Key.Key_Return)
    assert workspace.current_id == workspace.matches[(place + 1) % len(workspace.matches)], "Enter goes on from there"
