"""Clicking and dragging on the canvas's cards (QA: a click on a card cut by the view's edge
scrolled the view, moving the card from under the pointer, so a double click's second press
landed on another card or on nothing; a drag that started on a card did not pan the view, so
at a zoom where cards fill the view it could hardly be dragged at all)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from studio.ui.canvas.geometry import CARD_H, CARD_W


def _card_rect(ws, node_id: str) -> QRectF:  # type: ignore[no-untyped-def]
    cell = ws.scene.cells[node_id]
    return QRectF(cell.x, cell.y, CARD_W, CARD_H)


def _cut_by_the_right_edge(ws, node_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    """Scroll so that the card's right half is out of view; a point on its visible half."""
    view = ws.view
    rect = _card_rect(ws, node_id)
    visible = view.visible_scene_rect()
    view.centerOn(rect.center().x() - visible.width() / 2, rect.center().y())
    visible = view.visible_scene_rect()
    assert visible.intersects(rect) and not visible.contains(rect)
    return view.mapFromScene(visible.intersected(rect).center())


def _deepest_turn(window) -> str:  # type: ignore[no-untyped-def]
    cells = window.workspace.scene.cells
    return max(cells, key=lambda n: (cells[n].depth, -cells[n].row))


def test_clicking_a_card_cut_by_the_edge_leaves_it_under_the_pointer(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                       qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    target = _deepest_turn(window)
    point = _cut_by_the_right_edge(ws, target)
    before = ws.view.visible_scene_rect()
    qtbot.mouseClick(ws.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert ws.current_id == target
    assert ws.view.visible_scene_rect() == before  # the card did not move
    item = ws.view.itemAt(point)
    assert getattr(item, "node_id", None) == target  # still under the pointer


def test_double_clicking_a_card_cut_by_the_edge_opens_that_card(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    target = _deepest_turn(window)
    ws.select(ws.tree.root_id)
    point = _cut_by_the_right_edge(ws, target)
    activated: list[str] = []
    ws.scene.node_activated.connect(activated.append)
    # A double click as the system delivers it: a click, then a double-click press there.
    qtbot.mouseClick(ws.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    qtbot.mouseDClick(ws.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert activated == [target]
    assert ws.current_id == target
    assert window.last_error is None


def test_selecting_a_hidden_card_by_keyboard_still_scrolls_to_it(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                 qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    target = _deepest_turn(window)
    _cut_by_the_right_edge(ws, target)
    ws.select(target)
    assert ws.view.visible_scene_rect().contains(_card_rect(ws, target))


def _send_move(view, pos: QPoint) -> None:  # type: ignore[no-untyped-def]
    viewport = view.viewport()
    event = QMouseEvent(QEvent.Type.MouseMove, QPointF(pos), QPointF(viewport.mapToGlobal(pos)),
                        Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(viewport, event)


def test_a_drag_that_starts_on_a_card_pans_the_view(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, view = window.workspace, window.workspace.view
    tree = ws.tree
    turn = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(turn)
    start = view.mapFromScene(_card_rect(ws, turn).center())
    assert getattr(view.itemAt(start), "node_id", None) == turn
    h_bar, v_bar = view.horizontalScrollBar(), view.verticalScrollBar()
    h_bar.setValue((h_bar.minimum() + h_bar.maximum()) // 2)
    v_bar.setValue((v_bar.minimum() + v_bar.maximum()) // 2)
    start = view.mapFromScene(_card_rect(ws, turn).center())
    h_before, v_before = h_bar.value(), v_bar.value()
    assert h_bar.maximum() - h_before > 60 and v_before - v_bar.minimum() > 30

    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 7):
        _send_move(view, start + QPoint(-10 * step, 5 * step))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=start + QPoint(-60, 30))

    assert h_bar.value() == h_before + 60  # the content followed the pointer left
    assert v_bar.value() == v_before - 30  # and down
    assert ws.current_id == turn  # the press still selected the card
    assert view.scene().mouseGrabberItem() is None  # the card let go of the mouse
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.mapFromScene(_card_rect(ws, tree.root_id).center()))
    assert ws.current_id == tree.root_id  # a later click selects as before
    assert window.last_error is None


def test_a_click_on_a_card_without_moving_does_not_pan(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, view = window.workspace, window.workspace.view
    tree = ws.tree
    turn = tree.child_ids(tree.root_id)[0]
    ws.select(tree.root_id)
    point = view.mapFromScene(_card_rect(ws, turn).center())
    before = view.visible_scene_rect()
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    _send_move(view, point + QPoint(1, 1))  # a hand's tremble, under the drag distance
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=point + QPoint(1, 1))
    assert view.visible_scene_rect() == before
    assert ws.current_id == turn
