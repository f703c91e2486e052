"""A take tile replaced (another turn selected, a fork without takes) leaves the inspector's
row at once, not when it is deleted: Qt deletes it when the event loop it was let go in runs
again, and while a dialog's own event loop runs (Export, Settings, a question) that is only
once the dialog closes. Until then the old turn's take showed under the new turn's "No takes
yet" (seen driving the window with the events processed, not the deletions)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from studio.ui.inspector.takes_view import TakeTile


def _shown_tiles(ws) -> list[TakeTile]:  # type: ignore[no-untyped-def]
    return [tile for tile in ws.inspector.takes.findChildren(TakeTile) if tile.isVisible()]


def test_the_tiles_of_the_turn_left_are_gone_before_they_are_deleted(make_window, sample_project: Path,
                                                                      qtbot) -> None:  # type: ignore[no-untyped-def]
    from tests.ui.conftest import generate_first_branch

    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    ws = window.workspace
    ws.select(leaf)
    qtbot.waitUntil(lambda: len(_shown_tiles(ws)) == 1, timeout=5000)
    made = _shown_tiles(ws)[0].take

    window.actions_.fork.trigger()  # an alternative without takes, selected
    window.session.settle()
    for _ in range(10):  # the events, not the deletions (as inside a dialog's own event loop)
        QApplication.processEvents()
    assert ws.current_id != leaf and not ws.tree.takes_of(ws.current_id)
    assert ws.inspector.takes.tiles == []
    assert [tile.take.id for tile in _shown_tiles(ws)] == [], f"take {made.id} of the turn left still shows"
