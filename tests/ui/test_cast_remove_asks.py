"""Cast › Remove asks when turns name the character, including turns added after the cast
last changed (the panel is redrawn on cast changes only, so it must read the live document)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from studio.core.commands import AddTurn, turns_naming
from studio.core.model import new_id


def test_remove_asks_for_a_turn_added_after_the_character(make_window, sample_project: Path, qtbot,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    panel = ws.cast
    panel.add_character("Extra")
    session.settle()
    qtbot.waitUntil(lambda: any(panel.characters.item(i).text() == "Extra"
                                for i in range(panel.characters.count())), timeout=5000)
    tree = session.project.tree
    assert not turns_naming(tree, "Extra")
    leaf = tree.leaves_under(tree.root_id)[0].id
    turn = new_id()
    ws.apply(AddTurn(leaf, "Character: Extra; Motion: wave", node_id=turn))
    session.settle()
    qtbot.waitUntil(lambda: turn in session.project.tree.nodes, timeout=5000)
    assert [n.id for n in turns_naming(session.project.tree, "Extra")] == [turn]

    asked: list[str] = []

    def question(_parent, _title, text, *_args):  # type: ignore[no-untyped-def]
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.delattr(window, "confirm")  # the window's own question box, not the fixture's yes-man
    monkeypatch.setattr(QMessageBox, "question", question)
    panel.select_character("Extra")
    panel.characters.setFocus()
    qtbot.keyClick(panel.characters, Qt.Key.Key_Delete)
    session.settle()
    qtbot.wait(50)
    assert len(asked) == 1 and "1 turn names Extra" in asked[0], asked
    assert any(m.name == "Extra" for m in session.project.tree.cast.values()), "the user said no"
