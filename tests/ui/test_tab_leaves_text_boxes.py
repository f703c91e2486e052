"""Tab leaves the inspector's multi-line boxes (narration, shot notes, notes) as it leaves
every other field (QA: they typed a tab instead, so the keyboard could not get out)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt


def test_tab_moves_the_focus_on_from_each_text_box(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    turn = next(n for n in ws.tree.nodes.values() if not n.is_root).id
    ws.select(turn)
    inspector = ws.inspector
    for box in (inspector.story.narration, inspector.story.shot_notes, inspector.notes):
        window.activateWindow()
        box.setFocus()
        qtbot.waitUntil(box.hasFocus, timeout=2000)
        before = box.toPlainText()
        qtbot.keyClick(box, Qt.Key.Key_Tab)
        qtbot.waitUntil(lambda box=box: not box.hasFocus(), timeout=2000)
        assert box.toPlainText() == before  # no tab typed into it
