"""The keyboard cheat sheet (F1): every action that has a shortcut, grouped by menu."""

from __future__ import annotations

import html

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QScrollArea, QVBoxLayout, QWidget

SHEET_TEXT = "sheetText"
"""An action's property naming it on the sheet when its own text follows the selected turn
("Generate this turn" for Re-roll on a turn never generated): the sheet lists what a key does."""

SHEET_KEYS = "sheetKeys"
"""An action's property giving the keys the sheet shows for it, when they belong to the
entries of its submenu ("1 – 9" for Choose take: one line, not nine)."""


def cheat_sheet_html(groups: list[tuple[str, list[QAction]]]) -> str:
    parts = []
    for title, actions in groups:
        rows = []
        for action in actions:
            keys = str(action.property(SHEET_KEYS) or "") or ", ".join(
                s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts())
            if not keys:
                continue
            text = str(action.property(SHEET_TEXT) or action.text()).replace("&", "")
            rows.append(f"<tr><td style='padding:2px 14px 2px 0'><b>{html.escape(keys)}</b></td>"
                        f"<td>{html.escape(text)}</td></tr>")
        if rows:
            parts.append(f"<h3 style='margin:8px 0 2px 0'>{html.escape(title)}</h3><table>{''.join(rows)}</table>")
    return "".join(parts)


class CheatSheet(QDialog):
    def __init__(self, groups: list[tuple[str, list[QAction]]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(460, 560)
        label = QLabel(cheat_sheet_html(groups), self)
        label.setWordWrap(True)
        scroll = QScrollArea(self)
        scroll.setWidget(label)
        scroll.setWidgetResizable(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, parent=self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll)
        layout.addWidget(buttons)
