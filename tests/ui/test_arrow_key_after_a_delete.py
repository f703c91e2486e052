"""An arrow key pressed right after a Delete, before the window has heard of it (QA: the
selection still named the deleted turn, and Left, Right, Up or Down raised "no node '…' in
this story", an error box in the app, instead of doing nothing until the window selects
another turn)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from studio.core.commands import DeleteSubtree

Key = Qt.Key


def _settle(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=60_000)
    window.session.settle()
    qtbot.wait(150)


@pytest.mark.parametrize("key", [Key.Key_Left, Key.Key_Right, Key.Key_Up, Key.Key_Down])
def test_an_arrow_key_on_a_turn_just_deleted_does_nothing(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                          key: Qt.Key) -> None:
    window = make_window(sample_project)
    errors: list[str] = []
    window.show_error = lambda error: errors.append(getattr(error, "message", str(error)))  # type: ignore[method-assign]
    ws, project = window.workspace, window.session.project
    tree = project.tree
    turn = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]  # turn 2: a parent, a child and an alternative
    ws.select(turn)
    _settle(window, qtbot)
    ws.view.setFocus()
    project.apply(DeleteSubtree(turn))  # made on the writer now; the window hears of it later
    assert turn not in project.tree.nodes and ws.current_id == turn
    qtbot.keyClick(ws.view, key)  # an uncaught TreeError fails the test (pytest-qt)
    for action in (window.actions_.go_parent, window.actions_.go_child, window.actions_.go_prev_sibling,
                   window.actions_.go_next_sibling):
        action.trigger()  # the Navigate menu's entries too
    _settle(window, qtbot)
    assert errors == []
    assert ws.current_id in project.tree.nodes
