"""After an undo, the view follows the selection (QA: select turn 2, F, Esc, Ctrl+Z put the
selection back on turn 2 but left the view where the fork had been, turn 2 off-screen)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.ui.keys import press_story_key


def _card_shown(ws, node_id: str) -> bool:  # type: ignore[no-untyped-def]
    card = ws.scene.cards.get(node_id)
    return card is not None and ws.view.visible_scene_rect().contains(card.sceneBoundingRect())


def test_an_undone_fork_shows_the_turn_it_goes_back_to(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                       qtbot) -> None:
    window = make_window(sample_project)
    window.resize(1280, 720)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    turn2 = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(turn2)
    ws.view.setFocus()
    press_story_key(window, qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: ws.current_id != turn2 and ws.current_id in ws.scene.cards, timeout=10_000)
    fork = ws.current_id
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_Escape)
    # the author looks further along the fork's side of the tree: turn 2 goes out of view
    card = ws.scene.cards[fork].sceneBoundingRect()
    ws.view.centerOn(card.center().x() + ws.view.visible_scene_rect().width(), card.center().y() + 400)
    assert not _card_shown(ws, turn2)

    ws.view.setFocus()
    qtbot.keyClick(ws.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: fork not in session.project.tree.nodes and ws.current_id == turn2, timeout=5000)
    qtbot.waitUntil(lambda: _card_shown(ws, turn2), timeout=3000)
