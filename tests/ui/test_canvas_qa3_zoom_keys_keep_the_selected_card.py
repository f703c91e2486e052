"""Zooming with the keys (`+`, `-`, View › Zoom in / out) around the selected card (QA: a key
zoomed around the view's centre, or wherever the pointer rested, so the card one had just
selected to look at slid out of view after a few presses of `+`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF, Qt

from studio.ui.canvas.geometry import CARD_H, CARD_W
from tests.ui.keys import press_story_key


def _card_rect(ws, node_id: str) -> QRectF:  # type: ignore[no-untyped-def]
    cell = ws.scene.cells[node_id]
    return QRectF(cell.x, cell.y, CARD_W, CARD_H)


def _select_near_the_bottom_right(window) -> str:  # type: ignore[no-untyped-def]
    """Select the lowest, deepest turn and scroll it to the view's bottom right corner."""
    ws = window.workspace
    cells = ws.scene.cells
    target = max(cells, key=lambda n: (cells[n].row, cells[n].depth))
    ws.select(target)
    rect = _card_rect(ws, target)
    visible = ws.view.visible_scene_rect()
    ws.view.centerOn(rect.right() + 20 - visible.width() / 2, rect.bottom() + 20 - visible.height() / 2)
    assert ws.view.visible_scene_rect().contains(rect)
    return target


def look_far_from_the_selected_root(window):  # type: ignore[no-untyped-def]
    """Select the story's start and scroll to the deepest, lowest turn: the selected card is
    out of view. The window's workspace."""
    ws = window.workspace
    ws.select(ws.tree.root_id)
    cells = ws.scene.cells
    far = max(cells, key=lambda n: (cells[n].depth, cells[n].row))
    ws.view.centerOn(_card_rect(ws, far).center())
    assert not ws.view.visible_scene_rect().intersects(_card_rect(ws, ws.tree.root_id))
    return ws


@pytest.mark.parametrize("key", [Qt.Key.Key_Plus, Qt.Key.Key_Equal])
def test_zoom_in_keys_keep_the_selected_card_in_place(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                      key: Qt.Key) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    ws.view.set_zoom(0.5)
    target = _select_near_the_bottom_right(window)
    on_screen = ws.view.mapFromScene(_card_rect(ws, target).center())
    for _ in range(3):
        press_story_key(window, qtbot, key)
    assert ws.view.zoom == pytest.approx(0.5 * 1.2 ** 3)
    assert ws.view.visible_scene_rect().intersects(_card_rect(ws, target))
    moved = ws.view.mapFromScene(_card_rect(ws, target).center()) - on_screen
    assert moved.manhattanLength() <= 2  # the card's centre stays where it was on screen


def test_zoom_menu_items_keep_the_selected_card_in_place(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    ws.view.set_zoom(0.5)
    target = _select_near_the_bottom_right(window)
    on_screen = ws.view.mapFromScene(_card_rect(ws, target).center())
    window.actions_.zoom_in.trigger()
    window.actions_.zoom_in.trigger()
    window.actions_.zoom_out.trigger()
    moved = ws.view.mapFromScene(_card_rect(ws, target).center()) - on_screen
    assert moved.manhattanLength() <= 2


def test_zoom_keys_with_the_selected_card_out_of_view_zoom_around_the_centre(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = look_far_from_the_selected_root(window)
    centre = ws.view.visible_scene_rect().center()
    press_story_key(window, qtbot, Qt.Key.Key_Minus)
    assert ws.view.zoom == pytest.approx(1 / 1.2)
    drift = ws.view.visible_scene_rect().center() - centre
    assert abs(drift.x()) <= 2 and abs(drift.y()) <= 2  # the part being looked at stays in the middle
