"""Undoing a re-roll that was added beside the chosen take (QA: the turn's card still said
"2 takes" after Undo had taken the new take out, until something else touched the turn; the
change set names only the removed take, which the story no longer has, so the card was never
told which turn it belonged to)."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import generate_first_branch
from tests.ui.rerolled_takes import reroll_until


def test_the_card_counts_takes_again_after_an_undone_reroll(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    generate_first_branch(window, qtbot)
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]  # later turns follow it: a re-roll is added beside the chosen take
    chosen = tree.nodes[turn].selected_take_id
    ws.select(turn)
    ws.view.fit_all()  # every card exists
    reroll_until(ws, session, qtbot, turn, 2)
    assert session.project.tree.nodes[turn].selected_take_id == chosen  # added beside, not switched to
    qtbot.waitUntil(lambda: ws.scene.cards[turn].summary.take_count == 2, timeout=5000)

    window.actions_.undo.trigger()  # takes the new take out again
    qtbot.waitUntil(lambda: len(session.project.tree.takes_of(turn)) == 1, timeout=5000)
    session.settle()
    qtbot.wait(200)
    assert ws.scene.cards[turn].summary.take_count == 1

    window.actions_.redo.trigger()  # and Redo brings it back
    qtbot.waitUntil(lambda: len(session.project.tree.takes_of(turn)) == 2, timeout=5000)
    session.settle()
    qtbot.waitUntil(lambda: ws.scene.cards[turn].summary.take_count == 2, timeout=5000)
