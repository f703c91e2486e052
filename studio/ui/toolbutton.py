"""A small helper for the flat icon buttons used in panels."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QToolButton, QWidget


def tool_button(icon: QIcon, tip: str, slot: Callable[[], object], parent: QWidget,
                name: str = "") -> QToolButton:
    """An icon-only button. ``name`` is what a screen reader says for it (the tooltip when
    not given): a button with only an icon has no text to read out, and a tooltip that says
    why the button is off ("No finished jobs to forget") names the state, not the button."""
    button = QToolButton(parent)
    button.setIcon(icon)
    button.setToolTip(tip)
    button.setAccessibleName(name or tip)
    button.setAutoRaise(True)
    button.clicked.connect(lambda _checked=False: slot())
    return button
