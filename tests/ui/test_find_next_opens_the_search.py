"""F3 / Shift+F3 (Find next / previous) do what they do in editors and browsers: with no search
open they open it, on the last query if there was one, and go to the next (previous) match
from the selected turn. (QA: they stayed on with no search open and did nothing.) Shift+F3
from a turn that is no match goes to the match before it (it went to the last match but one)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt


def test_find_next_with_no_search_open_opens_it(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    assert ws.search.isHidden()
    assert window.actions_.find_next.isEnabled()
    window.actions_.find_next.trigger()  # no query yet: the search opens for one
    assert not ws.search.isHidden()
    qtbot.waitUntil(ws.search.edit.hasFocus, timeout=5000)

    qtbot.keyClicks(ws.search.edit, "qiqi")
    matches = ws.matches
    assert len(matches) >= 3
    qtbot.keyClick(ws.search.edit, Qt.Key.Key_Escape)  # closed; the query stays for F3
    assert ws.search.isHidden() and not ws.matches
    tree = window.session.project.tree
    ws.select(tree.root_id)  # the start: before every match
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)

    window.actions_.find_next.trigger()
    assert not ws.search.isHidden(), "F3 opens the search again"
    assert ws.matches == matches
    assert ws.current_id == matches[0]
    assert ws.view.hasFocus(), "the keyboard stays in the story"
    assert ws.search.count.text() == f"1 of {len(matches)}"
    window.actions_.find_next.trigger()
    assert ws.current_id == matches[1]
    window.actions_.find_previous.trigger()
    assert ws.current_id == matches[0]
    window.actions_.find_previous.trigger()  # round the start
    assert ws.current_id == matches[-1]

    qtbot.keyClick(ws.search.edit, Qt.Key.Key_Escape)
    ws.select(tree.root_id)
    window.actions_.find_previous.trigger()  # Shift+F3 with the search closed: the match before
    assert not ws.search.isHidden()
    assert ws.current_id == matches[-1]


def test_find_previous_from_a_turn_that_is_no_match(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    window.actions_.find.trigger()
    qtbot.keyClicks(ws.search.edit, "sky")  # the first turn and the second branch's last
    order = ws.layout_order()
    matches = ws.matches
    place = {n: i for i, n in enumerate(order)}
    between = [n for n in order if n not in matches and place[matches[0]] < place[n] < place[matches[-1]]]
    assert between, "the sample has turns between its two skies"
    turn = between[0]
    before = [m for m in matches if place[m] < place[turn]][-1]
    after = next(m for m in matches if place[m] > place[turn])
    ws.select(turn)  # clicked away from the match Find went to
    window.actions_.find_previous.trigger()
    assert ws.current_id == before
    ws.select(turn)
    window.actions_.find_next.trigger()
    assert ws.current_id == after


def test_find_next_with_no_matches_says_so(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    window.actions_.find.trigger()
    qtbot.keyClicks(ws.search.edit, "no such words anywhere")
    qtbot.keyClick(ws.search.edit, Qt.Key.Key_Escape)
    here = ws.current_id
    window.actions_.find_next.trigger()
    assert not ws.search.isHidden()
    assert ws.current_id == here
    assert "No matches" in window.status_label.text()
