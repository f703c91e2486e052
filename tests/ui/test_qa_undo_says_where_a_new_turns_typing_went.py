"""Writing a new turn under a fork, then Undo (the toolbar's) takes the fork away: the new
turn closes and its typing is kept with the fork. The status bar said so for a moment, then
"Undo Fork turn" wrote over it, and what it said ("Undo brings that turn back") was wrong
after an undo. Now the step's name and where the typing went are said together, with Redo as
the way back; Redo and Enter on the fork pick the typing up again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from studio.ui.workspace import DRAFT_PARENT_UNDONE


def _settle(window, qtbot, ms: int = 200) -> None:  # type: ignore[no-untyped-def]
    window.session.settle()
    QApplication.processEvents()
    qtbot.wait(ms)
    window.session.settle()
    QApplication.processEvents()


def test_undoing_the_turn_a_new_turn_follows_says_redo_brings_the_typing_back(make_window, sample_project: Path,
                                                                              qtbot) -> None:
    window = make_window(sample_project)
    ws, ins = window.workspace, window.workspace.inspector
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    _settle(window, qtbot)
    window.actions_.fork.trigger()
    _settle(window, qtbot)
    fork = ws.current_id
    assert fork != leaf and fork in window.session.project.tree.nodes
    ws.start_new_turn()
    ins.editor.motion.setText("runs down the hill")
    typed = ins.editor.text()
    window.actions_.undo.trigger()
    _settle(window, qtbot)
    assert fork not in window.session.project.tree.nodes
    said = window.status_label.text()
    assert said.startswith("Undo Fork turn") and DRAFT_PARENT_UNDONE in said
    assert "Undo brings" not in said
    window.actions_.redo.trigger()
    _settle(window, qtbot)
    assert ws.current_id == fork
    window.actions_.new_turn.trigger()
    _settle(window, qtbot)
    assert ins.draft_parent == fork and ins.editor.text() == typed


def test_an_undo_with_no_new_turn_open_says_only_its_name(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    window.actions_.fork.trigger()
    _settle(window, qtbot)
    window.actions_.undo.trigger()
    _settle(window, qtbot)
    assert window.status_label.text() == "Undo Fork turn"
