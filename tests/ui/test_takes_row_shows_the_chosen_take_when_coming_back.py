"""A turn with more takes than the inspector shows side by side, selected again after another
turn that has takes: its row shows the chosen take. It scrolled to the turn's last take, as if
every take had just arrived, so the chosen one was out of sight."""

from __future__ import annotations

from tests.ui.conftest import generate_first_branch
from tests.ui.rerolled_takes import reroll_until

WAIT_MS = 20_000
"""Generous: the machine may be busy (the inspector is redrawn on a later turn of the event loop)."""


def _in_view(takes, tile) -> bool:  # type: ignore[no-untyped-def]
    viewport = takes.scroll_area.viewport()
    left = tile.mapTo(viewport, tile.rect().topLeft()).x()
    return left >= 0 and left + tile.width() <= viewport.width() + 1


def test_coming_back_to_a_turn_shows_its_chosen_take(make_window, sample_project, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    generate_first_branch(window, qtbot)
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]  # turn 1: later turns follow it, a re-roll keeps its take
    after = tree.child_ids(turn)[0]
    ws.select(turn, center=False)
    reroll_until(ws, session, qtbot, turn, 7)
    tree = session.project.tree
    chosen = tree.node(turn).selected_take_id
    assert chosen == tree.takes_of(turn)[0].id  # the first take stays chosen: the row's first tile
    takes = ws.inspector.takes
    assert takes.per_view.currentText() == "4"

    ws.select(after, center=False)
    qtbot.waitUntil(lambda: len(takes.tiles) == 1 and takes.tiles[0].take.node_id == after, timeout=WAIT_MS)
    ws.select(turn, center=False)
    qtbot.waitUntil(lambda: len(takes.tiles) == 7, timeout=WAIT_MS)
    tile = next(t for t in takes.tiles if t.take.id == chosen)
    qtbot.wait(100)  # the row is laid out and scrolled in the next event-loop turns
    qtbot.waitUntil(lambda: _in_view(takes, tile), timeout=WAIT_MS)
    assert not _in_view(takes, takes.tiles[-1]), "the row shows the last take, not the chosen first one"
