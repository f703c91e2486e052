"""The keyboard cheat sheet (F1): every action that has a shortcut, grouped by menu, and the
keys that belong to no action (:data:`OTHER_KEYS`: a panel's own keys, the turn's menu,
Ctrl+wheel), so the sheet lists every key the README names.

All groups share one table, so the descriptions line up in a single column; each group's
title is a row of its own across both columns."""

from __future__ import annotations

import html
import re

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QScrollArea, QVBoxLayout, QWidget

SHEET_TEXT = "sheetText"
"""An action's property naming it on the sheet when its own text follows the selected turn
("Generate this turn" for Re-roll on a turn never generated): the sheet lists what a key does."""

SHEET_KEYS = "sheetKeys"
"""An action's property giving the keys the sheet shows for it, when they belong to the
entries of its submenu ("1 – 9" for Choose take: one line, not nine)."""

OTHER_KEYS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Navigate", (
        ("Menu, Shift+F10", "Open the selected turn's menu (as a right click on its card)"),
    )),
    ("View", (
        ("Ctrl+wheel", "Zoom in or out around the pointer"),
    )),
    ("Panels", (
        ("Alt+1", "Go to the inspector"),
        ("Alt+2", "Go to the queue"),
        ("Alt+3", "Go to the cast"),
        ("Tab, Shift+Tab", "Walk the inspector top to bottom, and leave it at either end"),
    )),
    ("Inspector", (
        ("Esc", "In the instruction's fields: back to the tree"),
        ("Alt+Up, Alt+Down", "In a dialogue line: move it up or down among the turn's lines"),
    )),
    ("Episode preview and Compare windows", (
        (", and .", "Step a frame back or on (once the player has the focus)"),
        ("Space", "In a Compare window: play and pause every player"),
        ("Esc", "Close the Compare branches window"),
    )),
)
"""Keys that are not an action's shortcut, by group: a group named as a menu joins that menu's."""

_STEP = re.compile(r"^(Undo|Redo)\b")
"""Undo and Redo name the step they would take ("Undo Add character"); the sheet names the key."""

_STEP_TEXT = {"Undo": "Undo the last edit", "Redo": "Redo the edit undone last"}


def sheet_keys(action: QAction) -> str:
    """The keys the sheet shows for ``action`` ('' for none)."""
    return str(action.property(SHEET_KEYS) or "") or ", ".join(
        s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts())


def sheet_text(action: QAction) -> str:
    """What the sheet says ``action`` does: its :data:`SHEET_TEXT`, else its text without the
    mnemonic's ``&``; Undo and Redo by their own name, not the step they would take now."""
    text = str(action.property(SHEET_TEXT) or action.text()).replace("&", "")
    step = _STEP.match(text)
    return _STEP_TEXT[step.group(1)] if step else text


def sheet_rows(groups: list[tuple[str, list[QAction]]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """(title, [(keys, what they do)]) for each group with any key: the actions' shortcuts,
    then the :data:`OTHER_KEYS` of that group (those an action of the group has already aside)."""
    merged: dict[str, list[tuple[str, str]]] = {}
    for title, actions in groups:
        rows = merged.setdefault(title, [])
        rows.extend((keys, sheet_text(action)) for action in actions if (keys := sheet_keys(action)))
    for title, extra in OTHER_KEYS:
        rows = merged.setdefault(title, [])
        taken = {keys for keys, _text in rows}
        rows.extend(row for row in extra if row[0] not in taken)
    return [(title, rows) for title, rows in merged.items() if rows]


def cheat_sheet_html(groups: list[tuple[str, list[QAction]]]) -> str:
    """The sheet as one table: a title row per group, then a row per key."""
    lines = []
    for number, (title, rows) in enumerate(sheet_rows(groups)):
        gap = "0" if number == 0 else "10px"
        lines.append(f"<tr><td colspan='2' style='padding:{gap} 0 2px 0'><b style='font-size:large'>"
                     f"{html.escape(title)}</b></td></tr>")
        lines.extend(f"<tr><td style='padding:2px 14px 2px 0'><b>{html.escape(keys)}</b></td>"
                     f"<td style='padding:2px 0'>{html.escape(text)}</td></tr>" for keys, text in rows)
    return f"<table cellspacing='0'>{''.join(lines)}</table>"


class CheatSheet(QDialog):
    def __init__(self, groups: list[tuple[str, list[QAction]]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(520, 600)
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
