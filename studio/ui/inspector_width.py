"""The inspector dock's width as the window is widened and narrowed.

The window's rule (:func:`studio.ui.window_layout.dock_widths`) sets it until the user drags
the splitter beside the inspector; from then on the width they gave it is kept (the window
still narrows it where it has no room, and gives it back once there is). Dragged back to
about the rule's width, the rule holds again.

A dock's splitter belongs to the main window itself (no child widget is under it), so a drag
of it is the main window's own press, moves and release: the width is read at the press and
again at the release.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow

BACK_TO_RULE_PX = 12
"""A drag that ends this close to the rule's width hands the width back to the rule."""


class InspectorWidth(QObject):
    """Which width the inspector dock should have now, and whether the user chose it."""

    def __init__(self, window: QMainWindow, dock: QDockWidget, rule: Callable[[], int]) -> None:
        super().__init__(window)
        self.window = window
        self.dock = dock
        self.rule = rule
        """The window's rule for the inspector's width at the window's present size."""
        self.chosen: int | None = None
        """The width the user gave the inspector by dragging its splitter (None: the rule's)."""
        self._pressed: int | None = None
        window.installEventFilter(self)

    def docked(self) -> bool:
        """Whether the inspector is shown in the window (the rule means nothing to a floating one)."""
        return not self.dock.isHidden() and not self.dock.isFloating()

    def wanted(self, rule_width: int | None = None) -> int:
        """The width the inspector should have: the user's, else ``rule_width`` (the rule's)."""
        if self.chosen is not None:
            return self.chosen
        return self.rule() if rule_width is None else rule_width

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
        if kind == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent) \
                and event.button() == Qt.MouseButton.LeftButton:
            # on no child widget: a splitter (a press a child passed on, from an empty part of
            # the toolbar say, is not a drag of one)
            on_splitter = self.window.childAt(event.position().toPoint()) is None
            self._pressed = self.dock.width() if on_splitter and self.docked() else None
        elif kind == QEvent.Type.MouseButtonRelease and self._pressed is not None:
            pressed, self._pressed = self._pressed, None
            width = self.dock.width()
            if self.docked() and width != pressed:  # the splitter was dragged (the last move is in)
                self.chosen = None if abs(width - self.rule()) <= BACK_TO_RULE_PX else width
        return False
