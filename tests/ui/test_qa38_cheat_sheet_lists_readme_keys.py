"""The F1 sheet lists every key the README names, Undo by its own name, and its descriptions
in one column whatever the group."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtGui import QTextDocument, QTextFrame, QTextTable
from PySide6.QtWidgets import QLabel

README = Path(__file__).resolve().parents[2] / "README.md"
KEY = re.compile(r"`((?:Ctrl|Shift|Alt)\+[^`\s]+|F\d+|Esc|Space|Delete|Tab|Ctrl\+wheel)`")


def _sheet_text(window) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    sheet = window.show_cheat_sheet()
    try:
        label = sheet.findChild(QLabel)
        assert label is not None
        html = label.text()
        document = QTextDocument()
        document.setHtml(html)
        return html, document.toPlainText()
    finally:
        sheet.close()


def test_every_key_the_readme_names_is_on_the_sheet(make_window, sample_project: Path) -> None:
    window = make_window(sample_project)
    readme_keys = set(KEY.findall(README.read_text(encoding="utf-8")))
    assert {"Alt+1", "Alt+2", "Alt+3", "Shift+F10", "Esc", "Ctrl+wheel", "Alt+Up"} <= readme_keys
    _html, text = _sheet_text(window)
    missing = sorted(key for key in readme_keys if key not in text)
    assert missing == [], f"the README names keys the sheet leaves out: {missing}"
    assert "Menu" in text  # the menu key, beside Shift+F10
    assert "dialogue line" in text  # Alt+Up / Alt+Down there, not only the alternatives'


def test_undo_is_named_as_the_key_not_as_the_step(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    window.workspace.cast.add_character("Hana")
    window.session.settle()
    qtbot.waitUntil(lambda: window.actions_.undo.text().replace("&", "") != "Undo", timeout=5000)
    step = window.actions_.undo.text().replace("&", "")  # "Undo Add character"
    _html, text = _sheet_text(window)
    assert step not in text
    assert "Undo the last edit" in text and "Redo the edit undone last" in text


def _description_lefts(html: str) -> list[float]:
    """The left edge of each description cell, every group's, as the sheet lays them out."""
    document = QTextDocument()
    document.setHtml(html)
    document.setTextWidth(600)
    layout = document.documentLayout()
    lefts = []

    def visit(frame: QTextFrame) -> None:
        for child in frame.childFrames():
            if isinstance(child, QTextTable) and child.columns() == 2:
                for row in range(child.rows()):
                    cell = child.cellAt(row, 1)
                    if cell.columnSpan() == 1:
                        block = cell.firstCursorPosition().block()
                        lefts.append(layout.blockBoundingRect(block).left())
            visit(child)

    visit(document.rootFrame())
    return lefts


def test_descriptions_line_up_across_groups(make_window, sample_project: Path) -> None:
    window = make_window(sample_project)
    html, _text = _sheet_text(window)
    lefts = _description_lefts(html)
    assert len(lefts) > 30
    assert max(lefts) - min(lefts) < 1, sorted(set(round(x) for x in lefts))
