"""Card geometry shared by the card, the edge layer and the overview layer."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF

from studio.ui.tree_layout import Cell

CARD_W = 204.0
CARD_H = 174.0
MARGIN = 8.0
POSTER = QRectF(MARGIN, MARGIN, CARD_W - 2 * MARGIN, 110.0)
RADIUS = 10.0

FULL_DETAIL = 0.8
"""Below this zoom (level of detail) cards drop their small text (the excerpt, badges) and
show a large poster and the title in a font scaled up to stay readable."""
POSTER_DETAIL = 0.14
"""Below this zoom the title can no longer be read: cards show the poster and the bars."""
OVERVIEW_SCALE = 0.1
"""Below this zoom cards are hidden and the overview layer draws every node as a rect
(a card is then about 20 pixels wide, and a screen can hold thousands of them)."""
DEFAULT_ZOOM = 1.0
"""The zoom a project opens at: card text is drawn at its own pixel size (11 px and more)."""
MIN_TITLE_PX = 12.0
"""The title's height on screen when zoomed out (between FULL_DETAIL and POSTER_DETAIL)."""


def card_rect_at(cell: Cell) -> QRectF:
    return QRectF(cell.x, cell.y, CARD_W, CARD_H)


def out_port(cell: Cell) -> QPointF:
    return QPointF(cell.x + CARD_W, cell.y + CARD_H / 2)


def in_port(cell: Cell) -> QPointF:
    return QPointF(cell.x, cell.y + CARD_H / 2)
