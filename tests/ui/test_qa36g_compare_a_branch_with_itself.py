"""Compare with the same branch picked in both columns: the window says so above the columns,
but each column's caption still read "Turns 1–5 after the parting", of a parting there is
not. The captions now name the turns shown without it, and say "after the parting" again
once another branch is picked."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication


def test_a_branch_compared_with_itself_has_no_parting(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    compare = ws.compare_branches()
    QApplication.processEvents()
    turns = tree.depth(leaf)
    left, right = compare.left, compare.right
    assert "after the parting" in left.caption.text() and "after the parting" in right.caption.text()

    right.picker.setCurrentIndex(left.picker.currentIndex())
    QApplication.processEvents()
    assert compare.parting.text().startswith("Both columns show the same branch")
    for column in (left, right):
        assert column.caption.text() == f"Turns 1–{turns} · 0 of {turns} generated"
        assert column.turns.topLevelItemCount() == turns

    right.picker.setCurrentIndex((left.picker.currentIndex() + 1) % right.picker.count())
    QApplication.processEvents()
    assert not compare.parting.text().startswith("Both columns")
    assert all("after the parting" in column.caption.text() for column in (left, right))
    compare.close()
