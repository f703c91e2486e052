"""A new action replaces the status bar's message or clears it (QA: "Bookmark 1 of 1" stayed
through a search and through folding, and folding said nothing of its own)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.ui.keys import press_story_key


def _bookmark_message(window, qtbot, *, mark: bool = True) -> None:  # type: ignore[no-untyped-def]
    """B on the selected turn (``mark``), then F2: the status bar says "Bookmark 1 of 1"."""
    ws = window.workspace
    if mark:
        press_story_key(window, qtbot, Qt.Key.Key_B)
        qtbot.waitUntil(lambda: window.session.project.tree.nodes[ws.current_id].bookmarked, timeout=5000)
    window.actions_.next_bookmark.trigger()
    qtbot.waitUntil(lambda: "Bookmark 1 of 1" in window.status_text(), timeout=3000)


def test_a_search_clears_the_last_message(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    ws.select(tree.child_ids(tree.root_id)[0])
    _bookmark_message(window, qtbot)
    window.actions_.find.trigger()
    qtbot.keyClicks(ws.search.edit, "qiqi")
    qtbot.waitUntil(lambda: ws.matches != [], timeout=3000)
    assert "Bookmark" not in window.status_text()
    _bookmark_message(window, qtbot, mark=False)
    window.actions_.find_next.trigger()  # F3: the next match
    assert "Bookmark" not in window.status_text()


def test_folding_says_what_it_folded(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    turn2 = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(turn2)
    _bookmark_message(window, qtbot)
    ws.select(turn2)
    hidden = sum(1 for _ in tree.descendants(turn2))
    assert hidden > 1
    press_story_key(window, qtbot, Qt.Key.Key_Z)
    assert window.status_text() == f"Folded {hidden} turns after turn 2 (Z unfolds)."
    press_story_key(window, qtbot, Qt.Key.Key_Z)
    assert window.status_text() == f"Unfolded {hidden} turns after turn 2."
