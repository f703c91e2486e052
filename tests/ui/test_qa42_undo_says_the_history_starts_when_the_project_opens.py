"""After reopening a project, Undo is off with nothing to undo: its tooltip says the history
starts when the project is opened and that earlier changes are saved (it read only "Undo");
once there is a step, it names the step again."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import SetNotes


def test_a_reopened_project_says_why_undo_is_off(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.apply(SetNotes(turn, "a note"))
    window.session.settle()
    qtbot.waitUntil(lambda: window.actions_.undo.isEnabled())
    assert window.actions_.undo.toolTip() == "Undo Edit notes"
    window.close_project("keep")

    window = make_window(sample_project)
    undo = window.actions_.undo
    assert not undo.isEnabled()
    assert undo.toolTip() == "Nothing to undo since the project was opened; earlier changes are saved"
    ws = window.workspace
    ws.apply(SetNotes(turn, "another note"))
    window.session.settle()
    qtbot.waitUntil(lambda: undo.isEnabled())
    assert undo.toolTip() == "Undo Edit notes"
