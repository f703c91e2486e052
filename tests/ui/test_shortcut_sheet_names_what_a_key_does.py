"""The shortcut sheet (F1) says what each key does, not the text its action has for the turn
selected now: with a turn never generated selected, R still reads as Re-roll there (the
menu says "Generate this turn"), B as Bookmark whether or not the turn has one."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLabel

from studio.core.commands import AddTurn


def test_the_sheet_lists_r_and_b_by_what_they_do(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    ws, project = window.workspace, window.session.project
    node = "never-made"
    project.apply(AddTurn(project.tree.root_id, "Qiqi runs to the bakery", node_id=node))
    qtbot.waitUntil(lambda: node in ws.tree.nodes)
    ws.select(node)
    qtbot.waitUntil(lambda: window.actions_.reroll.text() == "&Generate this turn")
    sheet = window.show_cheat_sheet()
    text = sheet.findChild(QLabel).text()
    assert "Re-roll (on a turn never generated: generate it)" in text
    assert "Generate this turn" not in text
    assert "Bookmark (or remove the bookmark)" in text
    sheet.close()
