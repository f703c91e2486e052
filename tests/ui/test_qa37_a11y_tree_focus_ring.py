"""The tree shows where the keyboard is: with the focus in the story tree, a ring is drawn
around the selected card, and it follows the arrow keys; with the focus elsewhere (the
inspector), the same card is drawn without it.

Before, the selected card looked the same whether the tree had the focus or not: who works
from the keyboard could not tell whether an arrow key would move through the tree."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from studio.ui.canvas.geometry import CARD_H, CARD_W
from tests.ui.keys import press_story_key


def _grab(view) -> QImage:  # type: ignore[no-untyped-def]
    QApplication.processEvents()
    return view.viewport().grab().toImage()


def _changed_area(before: QImage, after: QImage) -> QRect:
    """The bounding box of the pixels that differ between two grabs of one size."""
    assert before.size() == after.size()
    xs, ys = [], []
    for y in range(0, before.height()):
        for x in range(0, before.width()):
            if before.pixel(x, y) != after.pixel(x, y):
                xs.append(x)
                ys.append(y)
    return QRect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1) if xs else QRect()


def _card_on_screen(view, node_id: str) -> QRect:  # type: ignore[no-untyped-def]
    cell = view.tree_scene.cells[node_id]
    from PySide6.QtCore import QRectF

    return view.mapFromScene(QRectF(cell.x, cell.y, CARD_W, CARD_H)).boundingRect()


def _focus_elsewhere(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    notes = window.workspace.inspector.notes
    notes.setFocus()
    qtbot.waitUntil(notes.hasFocus, timeout=5000)


def test_the_selected_card_shows_the_keyboard_focus(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first)
    qtbot.wait(200)
    _focus_elsewhere(window, qtbot)
    unfocused = _grab(ws.view)
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    focused = _grab(ws.view)
    assert focused != unfocused, "the tree looks the same with and without the keyboard focus"
    changed = _changed_area(unfocused, focused)
    card = _card_on_screen(ws.view, first)
    assert card.adjusted(-8, -8, 8, 8).contains(changed), (changed, card)
    assert changed.width() >= card.width() and changed.height() >= card.height(), "a ring around the card"

    # the ring follows the arrow keys: on the next turn now, gone from the first
    press_story_key(window, qtbot, Qt.Key.Key_Right)
    second = tree.child_ids(first)[0]
    assert ws.current_id == second
    moved_focused = _grab(ws.view)
    _focus_elsewhere(window, qtbot)
    moved_unfocused = _grab(ws.view)
    changed = _changed_area(moved_unfocused, moved_focused)
    card = _card_on_screen(ws.view, second)
    assert card.adjusted(-8, -8, 8, 8).contains(changed), (changed, card)
    assert changed.width() >= card.width()
