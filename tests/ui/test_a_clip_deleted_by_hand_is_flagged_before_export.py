"""A chosen clip deleted behind the window's back is noticed when its turn is shown, played or
exported: the card, the preview and the status bar say so, the export dialog names the turn and keeps Export
off, and a re-roll of that turn uses its new take (a take kept beside the missing one fixed
nothing: the next export stopped the same way). Messages name the turn, never its node id."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import generate_first_branch, open_export_dialog
from .rerolled_takes import JOB_TIMEOUT_MS


def _delete_chosen_clip(session, node_id: str) -> str:  # type: ignore[no-untyped-def]
    take = session.project.tree.selected_take(node_id)
    clip = session.project.resolve(take.clip_path)
    clip.unlink()
    return str(take.id)


def test_a_deleted_clip_is_flagged_and_a_reroll_replaces_it(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    leaf = generate_first_branch(window, qtbot)
    tree = session.project.tree
    turn = [n.id for n in tree.path_to(leaf) if not n.is_root][1]  # turn 2 of the branch
    gone_take = _delete_chosen_clip(session, turn)

    ws.select(turn, center=False)
    assert "The clip of turn 2 is missing" in window.status_text()
    card = ws.scene.cards[turn]
    assert card.summary.clip_missing and "Clip missing" in card.toolTip()
    view = ws.episode.player.view  # the preview says so too (frames decoded before went on showing)
    qtbot.waitUntil(lambda: "Turn 2's clip is missing" in view.message, timeout=10_000)

    dialog = open_export_dialog(window, monkeypatch)
    assert "the clip of turn 2 is missing" in dialog.branch_label.text()
    assert not dialog.export_button.isEnabled()
    assert "Re-roll it (R)" in dialog.export_button.toolTip()
    dialog.close()

    ws.reroll(turn)
    qtbot.waitUntil(lambda: session.project.tree.node(turn).selected_take_id != gone_take, timeout=JOB_TIMEOUT_MS)
    session.settle()
    qtbot.waitUntil(lambda: not session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    chosen = session.project.tree.selected_take(turn)
    assert session.project.resolve(chosen.clip_path).is_file()  # the new take, with its clip, is used
    assert "used in place of the take whose clip is missing" in window.status_text()
    qtbot.waitUntil(lambda: not ws.scene.cards[turn].summary.clip_missing, timeout=5000)
    facts = ws.branch_facts()
    assert facts.exportable and not facts.clip_missing


def test_an_export_refusal_names_the_turn_not_its_node(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.export import ExportError, collect_branch
    from studio.ui.clip_presence import REROLL_AND_USE_HINT, in_window_words

    window = make_window(sample_project)
    session = window.session
    leaf = generate_first_branch(window, qtbot)
    turn = [n.id for n in session.project.tree.path_to(leaf) if not n.is_root][1]
    _delete_chosen_clip(session, turn)
    with pytest.raises(ExportError) as refused:
        collect_branch(session.project, leaf)
    assert f"node {turn}" in refused.value.message  # the library's words, for the command line
    said = in_window_words(refused.value)
    assert "node" not in said.message and "the clip of turn 2 (" in said.message
    assert said.hint == REROLL_AND_USE_HINT
