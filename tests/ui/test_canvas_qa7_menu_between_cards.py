"""A right click on the canvas between cards (QA: it opened nothing, so the zoom and fit the
View menu offers could not be reached where the user was pointing). It now opens the
canvas's menu: zoom in or out around the point clicked, fit the tree, show the selected turn;
each item is off where it would do nothing."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from studio.ui.canvas.geometry import CARD_H, CARD_W
from studio.ui.canvas.tree_view import MAX_SCALE


def _right_click(view, point: QPoint) -> QMenu:  # type: ignore[no-untyped-def]
    """A right click at ``point`` (viewport coordinates) as the mouse sends it; the menu it opened."""
    viewport = view.viewport()
    before = view.canvas_menu
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point,
                                                       viewport.mapToGlobal(point)))
    menu = view.canvas_menu
    assert menu is not None and menu is not before, "no menu opened"
    assert menu.isVisible()
    return menu


def _items(menu: QMenu) -> dict[str, object]:
    return {action.text().split("\t")[0]: action for action in menu.actions() if action.text()}


def _empty_point(ws) -> QPoint:  # type: ignore[no-untyped-def]
    """A point of the view under the first branch's Start card, between cards."""
    root = ws.scene.cells[ws.tree.root_id]
    point = ws.view.mapFromScene(QPointF(root.x + CARD_W / 2, root.y + CARD_H + 11))
    assert ws.view.viewport().rect().contains(point)
    assert not hasattr(ws.view.itemAt(point), "node_id")
    return point


def test_a_right_click_between_cards_opens_the_canvas_menu(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    view = ws.view
    view.set_zoom(1.0)
    view.centerOn(ws.scene.cells[ws.tree.root_id].x + CARD_W, ws.scene.cells[ws.tree.root_id].y + CARD_H)
    point = _empty_point(ws)
    opened: list[str] = []
    ws.scene.node_context_menu.connect(lambda node_id, _pos: opened.append(node_id))
    menu = _right_click(view, point)
    assert not opened  # not a turn's menu
    items = _items(menu)
    assert set(items) == {"Zoom in", "Zoom out", "Fit tree to view", "Show the selected turn"}

    anchor = view.mapToScene(point)
    items["Zoom in"].trigger()  # type: ignore[attr-defined]
    assert view.zoom > 1.0
    moved = view.mapFromScene(anchor) - point
    assert moved.manhattanLength() <= 2  # around the point clicked
    menu.close()

    menu = _right_click(view, _empty_point(ws))
    _items(menu)["Fit tree to view"].trigger()  # type: ignore[attr-defined]
    assert view.visible_scene_rect().contains(ws.scene.tree_rect())
    menu.close()


def test_the_canvas_menu_turns_off_what_would_do_nothing(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    view = ws.view
    view.set_zoom(MAX_SCALE)
    ws.select(ws.tree.root_id)
    view.center_on_node(ws.tree.root_id, only_if_hidden=False)
    root = ws.scene.cells[ws.tree.root_id]
    below = view.mapFromScene(QPointF(root.x + CARD_W / 2, root.y + CARD_H + 11))
    menu = _right_click(view, below)
    items = _items(menu)
    assert not items["Zoom in"].isEnabled()  # type: ignore[attr-defined]
    assert items["Zoom out"].isEnabled()  # type: ignore[attr-defined]
    menu.close()

    leaf = ws.tree.leaves_under(ws.tree.root_id)[-1].id
    ws.select(leaf, center=False)  # far out of view at this zoom
    menu = _right_click(view, below)
    show = _items(menu)["Show the selected turn"]
    assert show.isEnabled()  # type: ignore[attr-defined]
    show.trigger()  # type: ignore[attr-defined]
    cell = ws.scene.cells[leaf]
    assert view.visible_scene_rect().contains(QPointF(cell.x + CARD_W / 2, cell.y + CARD_H / 2))
    menu.close()

    view.set_zoom(1.0)
    view.center_on_node(leaf, only_if_hidden=False)  # now whole in view: nothing to show
    under_leaf = view.mapFromScene(QPointF(cell.x + CARD_W / 2, cell.y + CARD_H + 11))
    menu = _right_click(view, under_leaf)
    assert not _items(menu)["Show the selected turn"].isEnabled()  # type: ignore[attr-defined]
    menu.close()
