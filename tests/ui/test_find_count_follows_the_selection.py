"""Find's count named the place of the match stepped to last, not of the selected turn: after
deleting a matching turn and undoing it, the restored turn was selected but the bar said "2 of
8" (its parent's place) where it is the third match; a card selected by a click kept the
count of the match before it. The count now follows the selected turn."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt


def test_undoing_the_delete_of_a_match_counts_it_where_it_is(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, project = window.workspace, window.session.project
    window.actions_.find.trigger()
    qtbot.keyClicks(ws.search.edit, "qiqi")
    qtbot.wait(50)
    total = len(ws.matches)
    assert total >= 4 and ws.search.count.text() == f"1 of {total}"
    qtbot.keyClick(ws.search.edit, Qt.Key.Key_Return)
    qtbot.keyClick(ws.search.edit, Qt.Key.Key_Return)
    target = ws.current_id
    assert ws.matches.index(target) == 2 and ws.search.count.text() == f"3 of {total}"

    ws.delete_current()
    qtbot.waitUntil(lambda: target not in project.tree.nodes, timeout=5_000)
    qtbot.waitUntil(lambda: target not in ws.matches, timeout=5_000)
    left = ws.matches
    assert len(left) < total
    here = ws.current_id
    assert ws.search.count.text() == (f"{left.index(here) + 1} of {len(left)}" if here in left
                                      else f"{len(left)} matches")

    window.actions_.undo.trigger()
    qtbot.waitUntil(lambda: ws.current_id == target, timeout=5_000)
    assert ws.matches.index(target) == 2 and len(ws.matches) == total
    assert ws.search.count.text() == f"3 of {total}"
    qtbot.keyClick(ws.search.edit, Qt.Key.Key_Return)
    assert ws.current_id == ws.matches[3] and ws.search.count.text() == f"4 of {total}"


def test_a_selected_card_sets_the_count(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    window.actions_.find.trigger()
    qtbot.keyClicks(ws.search.edit, "qiqi")
    qtbot.wait(50)
    matches = ws.matches
    ws.select(matches[-1], center=False)  # as a click on its card does
    assert ws.search.count.text() == f"{len(matches)} of {len(matches)}"
    other = next(n for n in ws.layout_order() if n not in matches)
    ws.select(other, center=False)
    assert ws.search.count.text() == f"{len(matches)} matches"
