"""Folding the turns after a card on the story canvas (QA: with 35 turns in 5 branches there
was no way to put a branch out of the way while working on another). Z, View › Fold turns
after this, or the card's fold control hide every turn after a card; the layout closes up
over them and the card says how many it hides. Selecting a hidden turn unfolds what hides it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsSceneHoverEvent, QStyleOptionGraphicsItem

from studio.core.commands import SetNarration
from studio.ui.canvas.card_item import FOLD_CENTER, fold_tooltip, hidden_badge_rect, hidden_label
from studio.ui.canvas.geometry import CARD_W
from studio.ui.window_actions import FOLD_KEY, FOLD_TEXT, UNFOLD_TEXT
from tests.ui.keys import press_story_key

Key = Qt.Key


def _turns(window):  # type: ignore[no-untyped-def]
    """The sample story: start → first → second → (upper → … → leaf, lower → …)."""
    tree = window.workspace.tree
    first = tree.child_ids(tree.root_id)[0]
    second = tree.child_ids(first)[0]
    upper, lower = tree.child_ids(second)
    leaf = tree.leaves_under(upper)[0].id
    return first, second, upper, lower, leaf


def _below(window, node_id: str) -> set[str]:  # type: ignore[no-untyped-def]
    return {n.id for n in window.workspace.tree.descendants(node_id)}


def _fold_control_point(window, node_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    ws = window.workspace
    ws.view.center_on_node(node_id, only_if_hidden=False)
    card = ws.scene.cards[node_id]
    point = ws.view.mapFromScene(card.mapToScene(FOLD_CENTER))
    assert ws.view.viewport().rect().contains(point)
    return point


def _click_fold_control(window, qtbot, node_id: str) -> None:  # type: ignore[no-untyped-def]
    point = _fold_control_point(window, node_id)
    qtbot.mouseClick(window.workspace.view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_z_folds_the_turns_after_the_card_and_the_layout_closes_up(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, scene = window.workspace, window.workspace.scene
    _, second, upper, lower, _ = _turns(window)
    assert window.actions_.fold.shortcut().toString() == FOLD_KEY
    assert window.actions_.fold in window.menus["View"].actions()
    ws.select(second)
    before = dict(scene.cells)
    assert scene.branch_count == 2 and window.actions_.fold.text() == FOLD_TEXT

    press_story_key(window, qtbot, Key.Key_Z)
    hidden = _below(window, second)
    assert len(hidden) == 6
    assert scene.is_folded(second) and ws.current_id == second
    assert not hidden & set(scene.cells) and not hidden & set(scene.cards)  # no cell, no card
    assert scene.branch_count == 1  # the second branch's row is gone
    assert scene.tree_rect().right() == before[second].x + CARD_W  # nothing to the right of the fold
    card = scene.cards[second]
    assert card.folded and card.hidden == 6 and hidden_label(card.hidden) == "+6 turns"
    assert {n: scene.cells[n] for n in scene.cells} == {n: c for n, c in before.items() if n not in hidden}
    assert window.actions_.fold.text() == UNFOLD_TEXT

    press_story_key(window, qtbot, Key.Key_Z)  # again: unfolded, every card back in its place
    assert not scene.is_folded(second) and scene.cells == before
    assert scene.cards[second].hidden == 0 and upper in scene.cards and lower in scene.cards
    assert window.actions_.fold.text() == FOLD_TEXT
    assert window.last_error is None


def _card_picture(card, area: QRectF) -> QImage:  # type: ignore[no-untyped-def]
    """``area`` (the card's coordinates) of the card alone, as it paints itself at full detail."""
    image = QImage(int(area.width()), int(area.height()), QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.translate(-area.topLeft())
    card.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    return image


def test_the_control_and_badge_are_drawn(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    scene = window.workspace.scene
    _, second, _, _, _ = _turns(window)
    card = scene.cards[second]
    control = QRectF(FOLD_CENTER.x() - 12, FOLD_CENTER.y() - 12, 24, 24)
    badge = hidden_badge_rect(6)
    unfolded = _card_picture(card, control), _card_picture(card, badge)
    card.set_fold(False, 0)  # as a card with nothing after it
    assert _card_picture(card, control) != unfolded[0]  # no control there
    card.set_fold(True, 0)
    assert _card_picture(card, control) == unfolded[0]
    scene.toggle_fold(second)
    assert card.hidden == 6
    assert _card_picture(card, control) != unfolded[0]  # "+" where "−" was
    assert _card_picture(card, badge) != unfolded[1]  # "+6 turns" over the poster


def test_fold_on_a_turn_with_nothing_after_it_does_nothing(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, scene = window.workspace, window.workspace.scene
    *_, leaf = _turns(window)
    ws.select(leaf)
    before = dict(scene.cells)
    press_story_key(window, qtbot, Key.Key_Z)
    assert not scene.is_folded(leaf) and scene.cells == before
    assert not scene.cards[leaf].foldable  # no control drawn, none to click
    assert window.last_error is None


def test_the_cards_control_folds_and_unfolds_without_selecting(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, scene = window.workspace, window.workspace.scene
    _, _, upper, lower, _ = _turns(window)
    ws.select(lower)
    lower_cell = scene.cells[lower]
    _click_fold_control(window, qtbot, upper)
    assert scene.is_folded(upper) and ws.current_id == lower  # as an outliner's triangle: the selection stays
    assert not _below(window, upper) & set(scene.cells)
    assert scene.cells[lower] == lower_cell and scene.branch_count == 2
    _click_fold_control(window, qtbot, upper)
    assert not scene.is_folded(upper) and _below(window, upper) <= set(scene.cells)
    assert ws.current_id == lower


def _hover_at(scene, card, pos: QPointF) -> None:  # type: ignore[no-untyped-def]
    """The pointer moving over ``card`` at ``pos`` (the card's coordinates), as the scene tells it."""
    event = QGraphicsSceneHoverEvent(QEvent.Type.GraphicsSceneHoverMove)
    event.setPos(pos)
    event.setScenePos(card.mapToScene(pos))
    scene.sendEvent(card, event)


def test_the_controls_tooltip_says_what_a_click_does(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    scene = window.workspace.scene
    _, second, _, _, _ = _turns(window)
    card = scene.cards[second]
    body_tip = card.toolTip()
    _hover_at(scene, card, FOLD_CENTER)
    assert card.toolTip() == fold_tooltip(0) and "Fold" in card.toolTip()
    scene.toggle_fold(second)
    _hover_at(scene, card, FOLD_CENTER + QPointF(0, 2))
    assert card.toolTip() == fold_tooltip(6) and "6 turns" in card.toolTip()
    _hover_at(scene, card, QPointF(40, 40))  # on the card: its own tooltip again
    assert card.toolTip() == body_tip


def test_folding_over_the_selected_turn_selects_the_folded_card(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, scene = window.workspace, window.workspace.scene
    _, second, _, _, leaf = _turns(window)
    ws.select(leaf)
    _click_fold_control(window, qtbot, second)
    assert scene.is_folded(second)
    assert ws.current_id == second and scene.current_id == second  # never a hidden selection
    assert window.actions_.fold.text() == UNFOLD_TEXT


def test_arrow_keys_pass_a_folded_card_and_right_unfolds_it(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, scene = window.workspace, window.workspace.scene
    _, second, upper, lower, _ = _turns(window)
    ws.select(upper)
    press_story_key(window, qtbot, Key.Key_Z)
    assert scene.is_folded(upper)
    press_story_key(window, qtbot, Key.Key_Down)  # to the alternative below, past the folded turns
    assert ws.current_id == lower and scene.is_folded(upper)
    press_story_key(window, qtbot, Key.Key_Up)
    assert ws.current_id == upper and scene.is_folded(upper)
    press_story_key(window, qtbot, Key.Key_Left)
    assert ws.current_id == second and scene.is_folded(upper)
    press_story_key(window, qtbot, Key.Key_Right)
    assert ws.current_id == upper and scene.is_folded(upper)  # onto the folded card, not into it
    press_story_key(window, qtbot, Key.Key_Right)  # into it: the turns after it show again
    after = window.workspace.tree.child_ids(upper)[0]
    assert ws.current_id == after and not scene.is_folded(upper)
    assert after in scene.cells and after in scene.cards
    assert window.last_error is None


def test_selecting_a_hidden_turn_unfolds_it(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, scene = window.workspace, window.workspace.scene
    first, second, _, lower, leaf = _turns(window)
    ws.select(second)
    press_story_key(window, qtbot, Key.Key_Z)
    ws.select(first)
    press_story_key(window, qtbot, Key.Key_Z)  # a fold inside a fold
    assert scene.is_folded(first) and scene.is_folded(second) and leaf not in scene.cells
    assert leaf in scene.layout_order()  # what a search goes through: the hidden turns too
    ws.select(leaf)  # as a search match, a bookmark or the episode strip select it
    assert not scene.is_folded(first) and not scene.is_folded(second)
    assert ws.current_id == leaf and scene.current_id == leaf
    assert leaf in scene.cells and leaf in scene.cards
    card_rect = scene.cards[leaf].sceneBoundingRect()
    assert ws.view.visible_scene_rect().intersects(card_rect)  # brought into view
    assert lower in scene.cells


def test_an_undo_that_selects_a_hidden_turn_unfolds_it(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, scene = window.workspace, window.workspace.scene
    _, second, _, _, leaf = _turns(window)
    ws.select(leaf)
    ws.apply(SetNarration(leaf, "A folded line."))
    qtbot.waitUntil(lambda: ws.tree.node(leaf).story.narration == "A folded line.", timeout=5_000)
    ws.select(second)
    press_story_key(window, qtbot, Key.Key_Z)
    assert leaf not in scene.cells
    window.actions_.undo.trigger()
    qtbot.waitUntil(lambda: ws.tree.node(leaf).story.narration != "A folded line.", timeout=5_000)
    qtbot.waitUntil(lambda: ws.current_id == leaf, timeout=5_000)  # the undone step's turn
    assert leaf in scene.cells and not scene.is_folded(second)


def test_folds_are_kept_when_the_project_is_opened_again(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    _, _, upper, _, _ = _turns(window)
    window.workspace.select(upper)
    press_story_key(window, qtbot, Key.Key_Z)
    hidden = _below(window, upper)
    window.close_project()
    assert window.workspace is None
    assert window.open_project(sample_project), window.last_error
    scene = window.workspace.scene
    assert scene.is_folded(upper) and not hidden & set(scene.cells)
    assert scene.branch_count == 2
