"""A fork and its original read alike (same instruction, same story): the inspector's heading
says which alternative of its turn is shown, and follows a fork, its undo and a move; the
filmstrip names a turn without a picture in the card's words (QA: both alternatives read
"Turn 1"; the filmstrip said "draft" and "running" where the cards say "not generated yet"
and show a progress ring)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.ui.keys import press_story_key


def test_the_heading_says_which_alternative_is_shown(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, project = window.workspace, window.session.project
    tree = project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first, center=False)
    qtbot.waitUntil(lambda: ws.inspector.title.text() == "Turn 1", timeout=5000)

    press_story_key(window, qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: ws.current_id != first and ws.current_id in project.tree.nodes, timeout=10_000)
    fork = ws.current_id
    assert project.tree.child_ids(project.tree.root_id) == [first, fork]
    qtbot.waitUntil(lambda: ws.inspector.title.text() == "Turn 1 · alternative 2 of 2", timeout=5000)
    ws.select(first, center=False)
    qtbot.waitUntil(lambda: ws.inspector.title.text() == "Turn 1 · alternative 1 of 2", timeout=5000)

    ws.select(fork, center=False)
    ws.move_alternative(-1)  # the fork goes above its original
    qtbot.waitUntil(lambda: project.tree.child_ids(project.tree.root_id) == [fork, first], timeout=10_000)
    qtbot.waitUntil(lambda: ws.inspector.title.text() == "Turn 1 · alternative 1 of 2", timeout=5000)

    qtbot.waitUntil(window.actions_.undo.isEnabled, timeout=5000)
    window.actions_.undo.trigger()  # the move
    qtbot.waitUntil(lambda: project.tree.child_ids(project.tree.root_id) == [first, fork], timeout=10_000)
    qtbot.waitUntil(window.actions_.undo.isEnabled, timeout=5000)
    window.actions_.undo.trigger()  # the fork
    qtbot.waitUntil(lambda: fork not in project.tree.nodes, timeout=10_000)
    qtbot.waitUntil(lambda: ws.current_id == first, timeout=5000)
    qtbot.waitUntil(lambda: ws.inspector.title.text() == "Turn 1", timeout=5000)


def test_the_filmstrip_names_a_turn_without_a_picture_as_its_card_does(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                         qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    ws.select(tree.leaves_under(tree.root_id)[0].id, center=False)
    qtbot.waitUntil(lambda: len(ws.episode.strip.summaries) > 2, timeout=5000)
    assert ws.episode.strip.placeholder_text(1) == "not generated"
