"""The Edit menu names the Undo step as the history holds it when the menu opens: a change
made on the writer that the window has not heard of yet (a branch re-roll's takes land one by
one) is named already, so the count in "Undo Re-roll branch (2 of 31 turns)" doesn't lag."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import SetNotes


def test_opening_the_edit_menu_names_the_newest_step(make_window, sample_project: Path) -> None:
    window = make_window(sample_project)
    document = window.session.project.document
    turn = window.workspace.tree.child_ids(window.workspace.tree.root_id)[0]
    assert window.actions_.undo.text() == "&Undo"
    document.apply(SetNotes(turn, "a note"))  # on the writer; the window hears of it later
    assert document.history.undo_label == "Edit notes"
    window.menus["Edit"].aboutToShow.emit()
    assert window.actions_.undo.text() == "&Undo Edit notes"
    assert window.actions_.undo.isEnabled()
