"""The inspector dock's width as the window is widened and narrowed.

The window's rule (:func:`studio.ui.window_layout.dock_widths`) sets it until the user drags
the splitter beside the inspector; from then on the width they gave it is kept in any window
at least as wide as the one they chose it in (narrower, it gives back room for the canvas:
:func:`studio.ui.window_layout.kept_inspector_width`). Dragged back to about the rule's
width, the rule holds again.

A dock's splitter belongs to the main window itself (no child widget is under it), so a drag
of it is the main window's own press, moves and release: the width is read at the press and
again at the release. A double click on a dock's splitter hands every dock's width back to the
window's rule (:attr:`InspectorWidth.reset_asked`), as View › Reset panel widths does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow

from studio.ui.window_layout import ChosenWidth, DockWidths, dock_widths, kept_inspector_width

BACK_TO_RULE_PX = 12
"""A drag that ends this close to the rule's width hands the width back to the rule."""


class InspectorWidth(QObject):
    """Which width the inspector dock should have now, and whether the user chose it."""

    reset_asked = Signal()
    """A dock's splitter was double-clicked: the docks are to take the rule's widths again."""

    def __init__(self, window: QMainWindow, dock: QDockWidget, left_open: Callable[[], bool]) -> None:
        super().__init__(window)
        self.window = window
        self.dock = dock
        self.left_open = left_open
        """Whether a dock is shown at the window's left (the rule gives the inspector less then)."""
        self.chosen: ChosenWidth | None = None
        """The width the user gave the inspector by dragging its splitter (None: the rule's)."""
        self._pressed: int | None = None
        window.installEventFilter(self)

    def forget_chosen(self) -> None:
        """Hand the inspector's width back to the window's rule (Reset panel widths)."""
        self.chosen = None

    def docked(self) -> bool:
        """Whether the inspector is shown in the window (the rule means nothing to a floating one)."""
        return not self.dock.isHidden() and not self.dock.isFloating()

    def rule(self) -> int:
        """The window's own width for the inspector at the window's present size."""
        return dock_widths(self.window.width(), left_open=self.left_open()).inspector

    def wanted(self) -> int:
        """The width the inspector should have: the user's (as the window's width allows),
        else the rule's."""
        return self.widths().inspector

    def widths(self) -> DockWidths:
        """The docks' widths at the window's present size: the rule's, with the user's
        inspector width if they chose one (the left docks then make room in proportion)."""
        window_width, left_open = self.window.width(), self.left_open()
        if self.chosen is None:
            return dock_widths(window_width, left_open=left_open)
        widths = dock_widths(window_width, left_open=left_open, inspector=self.chosen.width)
        return replace(widths, inspector=kept_inspector_width(self.chosen, window_width, left_open=left_open))

    def follow(self) -> None:
        """Give the docked inspector the width it should have, if it has another (the window
        was widened or narrowed)."""
        if not self.docked():
            return
        width = self.wanted()
        if self.dock.width() != width:
            self.window.resizeDocks([self.dock], [width], Qt.Orientation.Horizontal)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        kind = event.type()
        if kind == QEvent.Type.MouseButtonDblClick and isinstance(event, QMouseEvent) \
                and event.button() == Qt.MouseButton.LeftButton \
                and self.window.childAt(event.position().toPoint()) is None and self.docked():
            self._pressed = None
            self.reset_asked.emit()
        elif kind == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent) \
                and event.button() == Qt.MouseButton.LeftButton:
            # on no child widget: a splitter (a press a child passed on, from an empty part of
            # the toolbar say, is not a drag of one)
            on_splitter = self.window.childAt(event.position().toPoint()) is None
            self._pressed = self.dock.width() if on_splitter and self.docked() else None
        elif kind == QEvent.Type.MouseButtonRelease and self._pressed is not None:
            pressed, self._pressed = self._pressed, None
            width = self.dock.width()
            if self.docked() and width != pressed:  # the splitter was dragged (the last move is in)
                near_rule = abs(width - self.rule()) <= BACK_TO_RULE_PX
                self.chosen = None if near_rule else ChosenWidth(width, self.window.width())
        return False
