"""A turn whose generation failed says so, and how to try again, on its card, in the
inspector's take and in the branch preview (QA: the card's empty poster read "not generated
yet" under its "!", the inspector's take cut the error at 80 characters mid-word, and the
preview of a branch with no clip yet said a bare "no clip")."""

from __future__ import annotations

from pathlib import Path

from studio.ui.node_summary import CardStatus, placeholder_label
from tests.ui.conftest import fake_engine_window

TIMEOUT_MS = 60_000


def test_a_failed_turn_says_it_failed_on_the_card_the_inspector_and_the_player(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot, settings, registry) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    script.fail_on.add(tree.node(first).instruction.raw)
    ws.select(first)
    window.actions_.reroll.trigger()
    card = ws.scene.cards
    qtbot.waitUntil(lambda: card[first].summary.status == CardStatus.FAILED, timeout=TIMEOUT_MS)

    summary = card[first].summary
    on_card = placeholder_label(summary.status, ws.scene.poster_state(summary.poster_path))
    assert "failed" in on_card and "not generated" not in on_card
    assert "R" in on_card.split()  # the key that tries again

    qtbot.waitUntil(lambda: bool(ws.inspector.takes.tiles), timeout=TIMEOUT_MS)
    [tile] = ws.inspector.takes.tiles
    said = tile.player.view.message
    assert said.startswith("Generation failed: the fake engine was told to fail"), said
    assert said.splitlines()[0].endswith("…") and "Re-roll (R)" in said

    player = ws.episode.player  # the branch has no clip at all yet
    qtbot.waitUntil(lambda: "failed" in player.note, timeout=TIMEOUT_MS)
    assert player.note.startswith("Turn 1 failed: the fake engine was told to fail")
    assert player.view.message == player.note
    assert ws.episode.strip.placeholder_text(1) == "failed"
