"""The menu key (Shift+F10) on the tree opens the selected turn's menu (QA: it did nothing, or,
with another card under the view's middle, selected that card and opened its menu: a
keyboard user could not reach the card's menu)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu


def test_the_menu_key_opens_the_selected_turns_menu(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    first, last = tree.leaves_under(tree.root_id)[0].id, tree.leaves_under(tree.root_id)[-1].id
    qtbot.waitUntil(lambda: first in ws.scene.cells and last in ws.scene.cells, timeout=5000)
    ws.view.center_on_node(first, only_if_hidden=False)  # another turn's card under the middle
    ws.select(last, center=False)
    opened: list[str] = []
    ws.scene.node_context_menu.connect(lambda node_id, _pos: opened.append(node_id))
    viewport = ws.view.viewport()
    middle = QPoint(viewport.width() // 2, viewport.height() // 2)
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, middle,
                                                       viewport.mapToGlobal(middle)))
    assert opened == [last]
    assert ws.current_id == last
    menus = [menu for menu in ws.findChildren(QMenu) if menu.isVisible()]
    assert menus, "the turn's menu did not open"
    assert window.actions_.delete in menus[-1].actions()
    menus[-1].close()
