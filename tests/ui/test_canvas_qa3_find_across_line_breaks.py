"""Find with words that white space of another kind separates (QA: text copied across a line
break or a tab and pasted into the Find field keeps them, and found nothing; nor did a query
with one space find an instruction typed with two)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from studio.core.commands import AddTurn, SetNotes
from studio.ui.search_bar import find_matches, folded


@pytest.mark.parametrize("query", ["gently\nsit", "gently\tsit", "gently\r\nsit", " gently   sit\n", "GENTLY\u3000SIT"])
def test_white_space_of_any_kind_matches_a_space(query: str) -> None:
    assert "gently sit" in folded("Character: Qiqi; Motion: gently  sit on railing")
    assert folded(query) in folded("Character: Qiqi; Motion: gently  sit on railing")


def test_a_query_pasted_with_a_line_break_finds_the_turn(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, project = window.workspace, window.session.project
    root = project.tree.root_id
    project.apply(AddTurn(root, "Character: Qiqi; Motion: tiptoe  past lanterns; Background: day town.", "railing"))
    project.apply(SetNotes("railing", "Yuzu waves from\nthe bakery door"))
    qtbot.waitUntil(lambda: "railing" in ws.scene.cells, timeout=10_000)
    window.actions_.find.trigger()
    QApplication.clipboard().setText("tiptoe\npast lan")
    ws.search.edit.paste()
    assert ws.search.edit.text() == "tiptoe\npast lan"  # the field keeps the line break
    assert ws.matches == ["railing"] and ws.current_id == "railing"
    assert ws.search.count.text() == "1 of 1"
    ws.search.edit.setText("waves from the bakery")  # a note's line break, a space in the query
    assert ws.matches == ["railing"]
    assert find_matches(project.tree, "\n\t ", [*ws.scene.cells]) == []  # only white space: no query
    assert window.last_error is None
