"""A one-line label that ends in "…" where its text is longer than its room.

A plain ``QLabel`` asks its layout for the width of its whole text. In the status bar a long
message (an error naming a file path, say) then raised the window's minimum width past a
laptop's half screen, and the window could no longer be made narrow. This label asks for a
few characters; what it cuts shows whole in its tooltip, and :meth:`text` (what a screen
reader reads) is always the whole text.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QHelpEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolTip, QWidget

MIN_CHARS = 8
"""The label's narrowest, in average characters (about a word and the "…")."""


class ElidedLabel(QLabel):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        hint = super().minimumSizeHint()
        room = self.fontMetrics().averageCharWidth() * MIN_CHARS + self._margins()
        return QSize(min(hint.width(), room), hint.height())

    def _margins(self) -> int:
        margins = self.contentsMargins()
        return margins.left() + margins.right() + 2 * self.margin()

    def shown_text(self) -> str:
        """The text as drawn: whole, or cut with "…" to the label's width."""
        width = self.contentsRect().width() - 2 * self.margin()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, max(0, width))

    def is_elided(self) -> bool:
        return self.shown_text() != self.text()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        if not self.is_elided():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        rect = self.contentsRect().adjusted(self.margin(), self.margin(), -self.margin(), -self.margin())
        self.style().drawItemText(painter, rect, int(self.alignment()), self.palette(), self.isEnabled(),
                                  self.shown_text(), self.foregroundRole())

    def event(self, event: QEvent) -> bool:
        """A cut text shows whole in a tooltip (a tooltip set on the label wins)."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent) and not self.toolTip() \
                and self.is_elided():
            QToolTip.showText(event.globalPos(), self.text(), self)
            return True
        return super().event(event)
