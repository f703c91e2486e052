"""Tab goes round the whole window and back to the tree (QA: with a turn that has dialogue
shown, Tab from the last button of the Cast & world dock went into that turn's dialogue
line, in the middle of the inspector: made after the window, it sits at the end of Qt's
focus chain. From there Tab went on through the inspector, the queue and the cast again,
round and round: the tree, the player and the toolbar were never reached again)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

STEPS = 120


def _walk(start: QWidget, qtbot, key: Qt.Key) -> list[QWidget]:  # type: ignore[no-untyped-def]
    """The widgets ``key`` (Tab or Backtab) focuses, from ``start`` until it is back there."""
    seen: list[QWidget] = []
    for _ in range(STEPS):
        focus = QApplication.focusWidget()
        assert focus is not None
        qtbot.keyClick(focus, key)
        now = QApplication.focusWidget()
        assert now is not None
        if now is start:
            return seen
        seen.append(now)
    raise AssertionError(f"{key.name} never came back to the tree; it went round "
                         f"{[type(w).__name__ for w in seen[-25:]]}")


def _window_with_dialogue_shown(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    turn = next(n.id for n in ws.tree.nodes.values() if n.story.dialogue)
    ws.select(turn)
    window.queue_dock.show()
    window.cast_dock.show()
    rows = ws.inspector.story.rows
    qtbot.waitUntil(lambda: bool(rows) and all(row.text.isVisible() for row in rows), timeout=5000)
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    return window


def test_tab_from_the_tree_comes_back_to_it_through_every_dock(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                               qtbot) -> None:
    window = _window_with_dialogue_shown(make_window, sample_project, qtbot)
    ws = window.workspace
    seen = _walk(ws.view, qtbot, Qt.Key.Key_Tab)
    for dock in (window.inspector_dock, window.queue_dock, window.cast_dock):
        assert any(dock.isAncestorOf(w) for w in seen), dock.objectName()
    row = ws.inspector.story.rows[0]
    assert sum(1 for w in seen if row.isAncestorOf(w)) == 3  # speaker, line, remove: once each, in place
    places = [i for i, w in enumerate(seen) if ws.inspector.isAncestorOf(w)]
    assert places == list(range(places[0], places[-1] + 1))  # the inspector in one stretch


def test_shift_tab_from_the_tree_comes_back_to_it_too(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = _window_with_dialogue_shown(make_window, sample_project, qtbot)
    ws = window.workspace
    seen = _walk(ws.view, qtbot, Qt.Key.Key_Backtab)
    assert any(window.inspector_dock.isAncestorOf(w) for w in seen)
    places = [i for i, w in enumerate(seen) if ws.inspector.isAncestorOf(w)]
    assert places == list(range(places[0], places[-1] + 1))
