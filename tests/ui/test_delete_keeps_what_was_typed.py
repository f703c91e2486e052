"""Deleting a turn while its notes are being typed: the confirmation asks (the typing is
written work), and Undo brings the turn back with what was typed (QA: the delete did not save
the typing first, and its check ignored the turn's notes, so an unsaved note was deleted
without a question and lost for good)."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import AddTurn


def test_a_turn_deleted_while_its_notes_are_typed_asks_and_undo_brings_them_back(
        make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = "draftturn01"  # a turn with nothing written and no take: no question was asked before
    session.project.apply(AddTurn(tree.leaves_under(tree.root_id)[0].id, "Qiqi waves.", node_id=leaf))
    session.settle()
    assert not session.project.tree.node(leaf).notes
    ws.select(leaf, center=False)
    qtbot.waitUntil(lambda: ws.inspector.node_id == leaf, timeout=5000)
    ws.inspector.notes.setPlainText("Remember: the bell rings twice.")  # typed, its save not due yet
    asked: list[str] = []
    ws.confirm = lambda title, text: asked.append(text) or True  # type: ignore[method-assign]
    ws.delete_current()
    session.settle()
    qtbot.waitUntil(lambda: leaf not in session.project.tree.nodes, timeout=5000)
    assert asked, "the typed notes are written work: the delete asks first"
    ws.undo()
    session.settle()
    qtbot.waitUntil(lambda: leaf in session.project.tree.nodes, timeout=5000)
    assert session.project.tree.node(leaf).notes == "Remember: the bell rings twice."
