"""Turn › Move alternative up / down: the tree's order changes, the card moves on the canvas,
the moved turn stays selected, and Undo puts it back."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.core.commands import AddTurn
from studio.core.model import new_id


def three_alternatives(window, qtbot) -> tuple[str, list[str]]:  # type: ignore[no-untyped-def]
    """Three new turns under the first branch's last turn: (their parent, their ids)."""
    session, ws = window.session, window.workspace
    tree = session.project.tree
    parent = tree.leaves_under(tree.root_id)[0].id
    kids = [new_id() for _ in range(3)]
    for index, kid in enumerate(kids):
        ws.apply(AddTurn(parent, f"Qiqi waves, take {index + 1}", node_id=kid))
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.child_ids(parent) == kids, timeout=5000)
    return parent, kids


def test_move_alternative_up_reorders_moves_the_card_and_undoes(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session, actions = window.workspace, window.session, window.actions_
    parent, (top, middle, bottom) = three_alternatives(window, qtbot)
    ws.select(middle)
    qtbot.waitUntil(lambda: middle in ws.scene.cards, timeout=5000)
    before_y = ws.scene.cards[middle].pos().y()
    assert actions.move_up.isEnabled() and actions.move_down.isEnabled()

    actions.move_up.trigger()
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.child_ids(parent) == [middle, top, bottom], timeout=5000)
    qtbot.waitUntil(lambda: ws.scene.cards[middle].pos().y() < before_y, timeout=5000)
    assert ws.current_id == middle
    assert ws.scene.cards[middle].pos().y() < ws.scene.cards[top].pos().y()
    qtbot.waitUntil(lambda: not actions.move_up.isEnabled(), timeout=5000)  # now the top one
    assert actions.move_down.isEnabled()

    actions.undo.trigger()
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.child_ids(parent) == [top, middle, bottom], timeout=5000)
    qtbot.waitUntil(lambda: ws.scene.cards[middle].pos().y() == before_y, timeout=5000)
    assert ws.current_id == middle


def test_move_alternative_is_offered_only_where_there_is_room(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session, actions = window.workspace, window.session, window.actions_
    parent, (top, middle, bottom) = three_alternatives(window, qtbot)
    ws.select(top)
    assert not actions.move_up.isEnabled() and actions.move_down.isEnabled()
    actions.move_up.trigger()  # disabled: nothing happens
    ws.move_alternative(-1)  # and asked directly, still nothing
    session.settle()
    qtbot.wait(50)
    assert session.project.tree.child_ids(parent) == [top, middle, bottom]
    ws.select(bottom)
    assert actions.move_up.isEnabled() and not actions.move_down.isEnabled()
    ws.select(session.project.tree.root_id)
    assert not actions.move_up.isEnabled() and not actions.move_down.isEnabled()


def test_alt_down_moves_the_selected_alternative_down(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    parent, (top, middle, bottom) = three_alternatives(window, qtbot)
    ws.select(top)
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    qtbot.keyClick(ws.view, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.child_ids(parent) == [middle, top, bottom], timeout=5000)
    assert ws.current_id == top


def test_a_cards_right_click_menu_offers_the_moves(make_window, sample_project: Path, qtbot) -> None:
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QMenu

    window = make_window(sample_project)
    ws, actions = window.workspace, window.actions_
    _parent, (_top, middle, _bottom) = three_alternatives(window, qtbot)
    ws._context_menu(middle, QPoint(10, 10))
    menus = [menu for menu in ws.findChildren(QMenu) if menu.isVisible()]
    assert menus, "the card's menu did not open"
    offered = menus[-1].actions()
    assert actions.move_up in offered and actions.move_down in offered
    assert ws.current_id == middle and actions.move_up.isEnabled()
    menus[-1].close()
