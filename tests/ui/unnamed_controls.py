"""The controls of a window that a screen reader could not name, for the accessibility tests.

A control is named when its accessible interface gives a name with a letter in it: its
accessible name, its text (a button's), or the label whose buddy it is. A drop-down counts
as named only by its accessible name or a label: Qt reads its current choice out as its name,
which says what is chosen but not what is being chosen. What Qt makes and names itself (the
drop-down's list, a spin box's or drop-down's line edit, a text box's clear button, scroll
bars, header views, the dock area's tab bar) is left out.
"""

from __future__ import annotations

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QGraphicsView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPlainTextEdit,
    QScrollBar,
    QTabBar,
    QTextEdit,
    QWidget,
)

INTERACTIVE = (QAbstractButton, QAbstractSlider, QComboBox, QAbstractItemView, QAbstractSpinBox, QLineEdit,
               QTextEdit, QPlainTextEdit, QGraphicsView, QTabBar)
QT_OWN_PARENTS = (QComboBox, QAbstractSpinBox, QLineEdit, QTabBar)
"""Parents whose child controls Qt makes: a drop-down's list and line edit, a clear button,
a tab bar's scroll arrows."""


def _has_letter(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def _made_by_qt(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    if widget.objectName().startswith("qt_") or isinstance(widget, QScrollBar | QHeaderView):
        return True
    if isinstance(widget, QTabBar) and isinstance(parent, QMainWindow):
        return True  # the tabs of docks stacked together, named after the docks
    while parent is not None:  # a drop-down's list sits in a frame inside the drop-down
        if isinstance(parent, QT_OWN_PARENTS):
            return True
        parent = parent.parentWidget()
    return False


def spoken_name(widget: QWidget, labels: list[QLabel]) -> str:
    """The name a screen reader says for ``widget`` (``labels``: the window's labels)."""
    if isinstance(widget, QComboBox):
        buddies = [label.text() for label in labels if label.buddy() is widget]
        return widget.accessibleName() or (buddies[0] if buddies else "")
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface.text(QAccessible.Text.Name) if interface is not None else ""


def describe(widget: QWidget) -> str:
    """``widget`` as a line a person can find in the code: its class, its parents', its tooltip."""
    chain = []
    parent = widget.parentWidget()
    while parent is not None and len(chain) < 3:
        chain.append(type(parent).__name__)
        parent = parent.parentWidget()
    tip = f" tip={widget.toolTip()[:50]!r}" if widget.toolTip() else ""
    return f"{type(widget).__name__} in {'/'.join(chain)}{tip}"


def _inside(widget: QWidget, kinds: tuple[type[QWidget], ...]) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, kinds):
            return True
        parent = parent.parentWidget()
    return False


def unnamed_controls(top: QWidget, *, leave_out: tuple[type[QWidget], ...] = (),
                     only_in: tuple[type[QWidget], ...] = ()) -> list[str]:
    """Each control under ``top`` (shown or not) without a name, and each icon-only button
    without a tooltip, described; none inside a ``leave_out`` widget, and when ``only_in`` is
    given, only those inside one of its kinds."""
    labels = top.findChildren(QLabel)
    found = []
    for widget in [top, *top.findChildren(QWidget)]:
        if not isinstance(widget, INTERACTIVE) or _made_by_qt(widget):
            continue
        if (leave_out and _inside(widget, leave_out)) or (only_in and not _inside(widget, only_in)):
            continue
        if not _has_letter(spoken_name(widget, labels)):
            found.append(f"no name: {describe(widget)}")
        if isinstance(widget, QAbstractButton) and not _has_letter(widget.text()) and not widget.toolTip():
            found.append(f"icon-only, no tooltip: {describe(widget)}")
    return found
