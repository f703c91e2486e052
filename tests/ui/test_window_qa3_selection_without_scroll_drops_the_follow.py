"""A turn selected before the canvas has laid it out is brought into view once it is laid
out; a later selection that does not scroll (a card's right-click menu) replaces it, so the
view must not jump back to the first turn when its layout arrives."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QMenu

from studio.core.commands import AddTurn
from studio.core.model import new_id


def test_a_menu_selection_cancels_the_pending_jump_to_an_unlaid_turn(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    workspace = window.workspace
    view = workspace.view
    tree = workspace.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    qtbot.wait(200)  # the opening view settles (show_selection runs on timers)
    view.set_zoom(2.0)  # cards large: the new turn at the end of the branch is out of view
    view.center_on_node(tree.root_id, only_if_hidden=False)
    new_turn = new_id()
    # the writer makes the turn at once; the canvas lays it out when its change set arrives
    window.session.writer.call(lambda: workspace.project.apply(AddTurn(leaf, "Qiqi waves.", node_id=new_turn)))
    assert new_turn in workspace.tree.nodes and new_turn not in workspace.scene.cells
    workspace.select(new_turn)  # to be followed once laid out
    workspace._context_menu(tree.root_id, QPoint(10, 10))  # the user right-clicks the start's card
    for menu in workspace.findChildren(QMenu):
        menu.close()
    assert workspace.current_id == tree.root_id
    before = view.visible_scene_rect()
    qtbot.waitUntil(lambda: new_turn in workspace.scene.cells, timeout=5000)
    qtbot.wait(50)
    assert view.visible_scene_rect() == before  # it jumped to the new turn, away from the start
