"""Choosing a take with the keyboard (Tab to its Use button, Space) keeps the keyboard in the
takes: the focus goes to the chosen take's new tile. (QA: the tiles of the two takes whose
choice changed are rebuilt, and the focused Use button went with its tile: the window had no
focus, and the next Tab started over in another dock.)"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

JOB_TIMEOUT_MS = 120_000


def _with_clips(session, node_id: str) -> list:  # type: ignore[no-untyped-def]
    return [t for t in session.project.tree.takes_of(node_id) if t.clip_path and t.status.value == "done"]


def test_use_this_take_by_keyboard_keeps_the_focus_on_that_take(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    ws.reroll_many(2)
    qtbot.waitUntil(lambda: len(_with_clips(session, leaf)) == 2, timeout=JOB_TIMEOUT_MS)
    session.settle()
    takes = ws.inspector.takes
    qtbot.waitUntil(lambda: len(takes.tiles) == 2 and all(t.isVisible() for t in takes.tiles), timeout=5000)
    other = next(tile for tile in takes.tiles if not tile.selected)
    chosen_id = other.take.id
    other.use_button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(other.use_button.hasFocus, timeout=5000)

    qtbot.keyClick(other.use_button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: session.project.tree.node(leaf).selected_take_id == chosen_id, timeout=10_000)
    session.settle()
    qtbot.waitUntil(lambda: any(t.selected and t.take.id == chosen_id for t in takes.tiles), timeout=5000)
    qtbot.wait(50)
    focus = QApplication.focusWidget()
    tile = next(t for t in takes.tiles if t.take.id == chosen_id)
    assert focus is not None, "the focus was lost with the rebuilt tile"
    assert tile.isAncestorOf(focus), f"the focus went to {focus!r}, not the chosen take's tile"

    qtbot.keyClick(focus, Qt.Key.Key_Tab)  # and Tab goes on inside the inspector
    after = QApplication.focusWidget()
    assert after is not None and ws.inspector.isAncestorOf(after)
