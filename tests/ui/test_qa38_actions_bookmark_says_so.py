"""B (and the inspector's bookmark button) say what they did, as F2 says where it went."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def test_b_says_bookmarked_then_removed(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    second = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(second, center=False)
    ws.view.setFocus()
    QTest.keyClick(ws.view, Qt.Key.Key_B)
    qtbot.waitUntil(lambda: window.session.project.tree.nodes[second].bookmarked, timeout=10_000)
    qtbot.waitUntil(lambda: "Bookmarked turn 2" in window.status_text(), timeout=5_000)
    QTest.keyClick(ws.view, Qt.Key.Key_B)
    qtbot.waitUntil(lambda: not window.session.project.tree.nodes[second].bookmarked, timeout=10_000)
    qtbot.waitUntil(lambda: "Bookmark removed from turn 2" in window.status_text(), timeout=5_000)


def test_the_inspectors_bookmark_button_says_so_too(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first, center=False)
    ws.inspector.bookmark.click()
    qtbot.waitUntil(lambda: window.session.project.tree.nodes[first].bookmarked, timeout=10_000)
    qtbot.waitUntil(lambda: "Bookmarked turn 1" in window.status_text(), timeout=5_000)
