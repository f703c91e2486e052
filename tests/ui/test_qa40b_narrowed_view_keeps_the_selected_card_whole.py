"""A tree view narrowed (the window made narrower, the queue coming out in a small window) with
the selected card at its edge shows the card whole (QA at 800x600: the selected card was left
half off the view's edge when the queue came out)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from studio.ui.canvas.geometry import CARD_H, CARD_W


def _settle(qtbot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(5):
        QApplication.processEvents()
        qtbot.wait(20)


def _second_turn_selected(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    """A 1100x650 window on the sample with its second turn selected: (window, tree view, the
    turn's card in the scene)."""
    window = make_window(sample_project)
    window.resize(1100, 650)
    _settle(qtbot)
    ws = window.workspace
    tree = window.session.project.tree
    turn2 = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(turn2)
    _settle(qtbot)
    cell = ws.scene.cells[turn2]
    card = QRectF(cell.x, cell.y, CARD_W, CARD_H)
    return window, ws.view, card


def test_the_selected_card_cut_by_a_narrowing_comes_back_whole(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                               qtbot) -> None:
    window, view, card = _second_turn_selected(make_window, sample_project, qtbot)
    shown = view.visible_scene_rect()
    # the card whole, at the view's right edge
    view.centerOn(card.right() + 8 - shown.width() / 2, card.center().y())
    _settle(qtbot)
    assert view.visible_scene_rect().contains(card)

    window.resize(900, 650)
    _settle(qtbot)
    shown = view.visible_scene_rect()
    assert shown.width() >= CARD_W
    assert shown.contains(card), (shown, card)


def test_a_card_scrolled_out_of_view_stays_out(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window, view, card = _second_turn_selected(make_window, sample_project, qtbot)
    view.centerOn(card.center().x() + 3000, card.center().y() + 3000)
    _settle(qtbot)
    before = view.visible_scene_rect()
    assert not before.intersects(card)
    window.resize(900, 650)
    _settle(qtbot)
    assert not view.visible_scene_rect().intersects(card)
