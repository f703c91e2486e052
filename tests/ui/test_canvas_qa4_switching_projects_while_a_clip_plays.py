"""Switching projects or closing the window while a clip plays: in the branch player, and on a
card under the mouse (hovering a card cycles its clip's frames). QA: the card's frame timer
outlived the card, so closing the window with the mouse resting on a card raised "Internal C++
object (CardItem) already deleted" ten times a second, and a card removed under the mouse (its
turn deleted) went on cycling its frames. The scene now runs the hover frames and stops them
with its cards."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint

from studio.ui.node_summary import CardStatus

from .conftest import generate_first_branch


def _hover(ws, qtbot, node_id: str):  # type: ignore[no-untyped-def]
    card = ws.scene.cards[node_id]
    view = ws.view
    view.centerOn(card)
    qtbot.wait(50)
    qtbot.mouseMove(view.viewport(), QPoint(5, 5))
    qtbot.mouseMove(view.viewport(), view.mapFromScene(card.sceneBoundingRect().center()))
    qtbot.waitUntil(lambda: card.hover_frame > 1, timeout=10_000)
    return card


def test_switching_projects_with_the_mouse_on_a_playing_card(make_window, sample_project: Path,
                                                              qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    ws = window.workspace
    ws.select(leaf, center=False)
    player = ws.episode.player
    qtbot.waitUntil(lambda: player.ready, timeout=10_000)
    window.actions_.play.trigger()  # the branch plays in the player too
    assert player.playing
    _hover(ws, qtbot, leaf)

    assert window.close_project("cancel")
    assert window.open_project(sample_project)  # the project again, in a new workspace
    qtbot.wait(500)  # several hover frames' time: nothing ticks on the cards of the closed project
    new = window.workspace
    assert new is not ws and not new.episode.player.playing
    new.select(leaf, center=False)
    assert new.scene.status(leaf) is CardStatus.DONE
    card = _hover(new, qtbot, leaf)  # the new project's cards play on hover
    assert card._poster_image() is not None



def test_closing_the_window_with_the_mouse_on_a_playing_card(make_window, sample_project: Path,
                                                              qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    ws = window.workspace
    _hover(ws, qtbot, leaf)
    window.close()  # Ctrl+Q with the mouse still on the card
    assert window.workspace is None
    qtbot.wait(500)  # several hover frames' time: nothing ticks on the deleted cards


def test_a_card_removed_while_hovered_stops_its_frames(make_window, sample_project: Path,
                                                      qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.core.commands import DeleteSubtree

    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    ws = window.workspace
    card = _hover(ws, qtbot, leaf)
    ws.apply(DeleteSubtree(leaf))  # its card goes while the mouse is on it
    qtbot.waitUntil(lambda: leaf not in ws.scene.cards, timeout=5_000)
    frame = card.hover_frame
    qtbot.wait(400)
    assert card.hover_frame == frame, "a removed card went on cycling its clip"
