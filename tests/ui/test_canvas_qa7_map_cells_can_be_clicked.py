"""Zoomed far out (a tree of hundreds of turns fitted to the view), the canvas is a map of
coloured cells. QA: a click on a cell did nothing, a double click did nothing and a right
click opened no menu, so a turn seen on the fitted tree could only be reached by zooming in
around it by hand. A click on a cell now selects its turn, a double click zooms in to read
it, a right click opens its menu; a click between cells, or a drag, still selects nothing."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from studio.ui.canvas.geometry import CARD_H, CARD_W


def _wide_tree(folder: Path) -> Path:
    """A story of 120 turns in a row with a side branch of 10 turns: fitted, it is a map."""
    from studio.composition import create_project
    from studio.core.commands import AddTurn

    project = create_project(folder / "wide.kamishibai", name="Wide")
    parent = project.tree.root_id
    for index in range(120):
        project.apply(AddTurn(parent, f"Character: Qiqi; Motion: walk; Background: day town. step {index}",
                              f"main{index}"))
        parent = f"main{index}"
    parent = "main30"
    for index in range(10):
        project.apply(AddTurn(parent, f"Character: Qiqi; Motion: wave; Background: day park. side {index}",
                              f"side{index}"))
        parent = f"side{index}"
    path = project.path
    project.close()
    return path


def _fitted(make_window, tmp_path: Path, qtbot):  # type: ignore[no-untyped-def]
    window = make_window(_wide_tree(tmp_path))
    window.resize(1280, 720)
    qtbot.wait(50)
    window.actions_.fit.trigger()
    ws = window.workspace
    assert ws.scene.overview_on, "the fitted tree should be the map of cells"
    return ws


def _on_cell(ws, node_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    cell = ws.scene.cells[node_id]
    return ws.view.mapFromScene(QPointF(cell.x + CARD_W / 2, cell.y + CARD_H / 2))


def test_a_click_on_a_cell_of_the_map_selects_its_turn(make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    ws = _fitted(make_window, tmp_path, qtbot)
    zoom = ws.view.zoom
    qtbot.mouseClick(ws.view.viewport(), Qt.MouseButton.LeftButton, pos=_on_cell(ws, "side7"))
    assert ws.current_id == "side7"
    assert ws.view.zoom == zoom  # a click selects; it does not zoom
    qtbot.mouseClick(ws.view.viewport(), Qt.MouseButton.LeftButton, pos=_on_cell(ws, "main100"))
    assert ws.current_id == "main100"


def test_a_click_between_cells_or_a_drag_selects_nothing(make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    ws = _fitted(make_window, tmp_path, qtbot)
    before = ws.current_id
    below = ws.scene.cells["side9"]
    empty = ws.view.mapFromScene(QPointF(below.x + CARD_W / 2, below.y + CARD_H * 3))  # under the side branch
    qtbot.mouseClick(ws.view.viewport(), Qt.MouseButton.LeftButton, pos=empty)
    assert ws.current_id == before
    start = _on_cell(ws, "side3")
    qtbot.mousePress(ws.view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(ws.view.viewport(), start + QPoint(40, 30))
    qtbot.mouseRelease(ws.view.viewport(), Qt.MouseButton.LeftButton, pos=start + QPoint(40, 30))
    assert ws.current_id == before  # a drag pans the map; it picks no turn


def test_a_double_click_on_a_cell_zooms_in_to_its_card(make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    ws = _fitted(make_window, tmp_path, qtbot)
    qtbot.mouseDClick(ws.view.viewport(), Qt.MouseButton.LeftButton, pos=_on_cell(ws, "side5"))
    assert ws.current_id == "side5"
    assert not ws.scene.overview_on
    card = ws.scene.cards.get("side5")
    assert card is not None and card.isVisible()
    cell = ws.scene.cells["side5"]
    assert ws.view.visible_scene_rect().contains(QPointF(cell.x + CARD_W / 2, cell.y + CARD_H / 2))


def test_a_right_click_on_a_cell_opens_that_turns_menu(make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    ws = _fitted(make_window, tmp_path, qtbot)
    asked: list[str] = []
    ws.scene.node_context_menu.connect(lambda node_id, _pos: asked.append(node_id))
    point = _on_cell(ws, "main60")
    qtbot.mouseClick(ws.view.viewport(), Qt.MouseButton.RightButton, pos=point)  # a right press selects
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point, ws.view.viewport().mapToGlobal(point))
    QApplication.sendEvent(ws.view.viewport(), event)
    assert asked == ["main60"]
    assert ws.current_id == "main60"
