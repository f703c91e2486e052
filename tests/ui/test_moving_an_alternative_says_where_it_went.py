"""Alt+Up / Alt+Down on an alternative says in the status bar where the turn went (it moved
without a word; only its undo said anything)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.ui.keys import press_story_key


def test_a_move_says_where_the_turn_now_stands(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, project = window.workspace, window.session.project
    first = project.tree.child_ids(project.tree.root_id)[0]
    ws.select(first, center=False)
    press_story_key(window, qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: ws.current_id != first and ws.current_id in project.tree.nodes, timeout=10_000)
    fork = ws.current_id
    said: list[str] = []
    ws.message.connect(said.append)
    ws.move_alternative(-1)
    qtbot.waitUntil(lambda: project.tree.child_ids(project.tree.root_id) == [fork, first], timeout=10_000)
    qtbot.waitUntil(lambda: any(m.startswith("Moved up: now alternative 1 of 2") for m in said), timeout=5000)
    ws.move_alternative(1)
    qtbot.waitUntil(lambda: any(m.startswith("Moved down: now alternative 2 of 2") for m in said), timeout=10_000)
    assert project.tree.child_ids(project.tree.root_id) == [first, fork]
