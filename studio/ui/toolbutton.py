"""A small helper for the flat icon buttons used in panels."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QToolButton, QWidget


def tool_button(icon: QIcon, tip: str, slot: Callable[[], object], parent: QWidget) -> QToolButton:
    button = QToolButton(parent)
    button.setIcon(icon)
    button.setToolTip(tip)
    button.setAutoRaise(True)
    button.clicked.connect(lambda _checked=False: slot())
    return button
