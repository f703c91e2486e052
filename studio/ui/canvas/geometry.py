"""Card geometry shared by the card, the edge layer and the overview layer."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF

from studio.ui.tree_layout import Cell

CARD_W = 204.0
CARD_H = 174.0
MARGIN = 8.0
POSTER = QRectF(MARGIN, MARGIN, CARD_W - 2 * MARGIN, 110.0)
RADIUS = 10.0

FULL_DETAIL = 0.45
"""Below this zoom (level of detail) cards drop text and posters."""
OVERVIEW_SCALE = 0.3
"""Below this zoom cards are hidden and the overview layer draws every node as a rect
(a card is then under 60 pixels wide, and a screen can hold several hundred of them)."""


def card_rect_at(cell: Cell) -> QRectF:
    return QRectF(cell.x, cell.y, CARD_W, CARD_H)


def out_port(cell: Cell) -> QPointF:
    return QPointF(cell.x + CARD_W, cell.y + CARD_H / 2)


def in_port(cell: Cell) -> QPointF:
    return QPointF(cell.x, cell.y + CARD_H / 2)
