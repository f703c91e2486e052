"""A turn written only in fields is shown on its card, its tooltip and the filmstrip as the
sentence its subtitle says ("Yuzu jumps in the park, by day."), not as its bare motion ("jump")."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import EditInstruction
from studio.core.sentence import describe_action

FIELDS = "Character: Yuzu; Motion: jump; Background: park; Time: day"


def test_a_fields_turn_reads_as_a_sentence_on_its_card(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    turn = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]  # the story's second turn
    ws.apply(EditInstruction(turn, FIELDS))
    session.settle()
    tree = session.project.tree
    sentence = describe_action(tree.node(turn).instruction, cast=tree.cast_names())
    assert "jumps" in sentence and "park" in sentence  # the subtitle's sentence, not a bare word
    card = ws.scene.cards[turn]
    qtbot.waitUntil(lambda: card.summary.excerpt == sentence, timeout=5000)
    assert sentence in card.toolTip()
    assert "jump<" not in card.toolTip() and card.summary.excerpt != "jump"
    ws.select(turn, center=False)
    strip = ws.episode.strip
    qtbot.waitUntil(lambda: any(s.node_id == turn for s in strip.summaries), timeout=5000)
    shown = next(s for s in strip.summaries if s.node_id == turn)
    assert shown.excerpt == sentence  # the filmstrip's "2. …" label reads the same sentence
