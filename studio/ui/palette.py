"""Colours and fonts shared by the painted views (cards, chart, strip)."""

from __future__ import annotations

from PySide6.QtGui import QColor

from studio.ui.node_summary import CardStatus

BACKGROUND = QColor("#161821")
GRID_DOT = QColor("#23263a")
CARD = QColor("#242838")
CARD_HOVER = QColor("#2b3045")
CARD_BORDER = QColor("#363c55")
CARD_SELECTED = QColor("#ff7aa2")
SEARCH_HIT = QColor("#ffd166")
TEXT = QColor("#e8e9f3")
TEXT_DIM = QColor("#9aa0bd")
POSTER_EMPTY = QColor("#1d2030")
EDGE = QColor("#4a5275")
EDGE_BRANCH = QColor("#ff7aa2")
ACCENT = QColor("#ff7aa2")

STAT_COLORS: dict[str, QColor] = {
    "stamina": QColor("#5ad19a"),
    "social": QColor("#5aa9ff"),
    "entertainment": QColor("#ffb84d"),
}
STAT_LABELS: dict[str, str] = {"stamina": "Stamina", "social": "Social", "entertainment": "Fun"}

STATUS_COLORS: dict[CardStatus, QColor] = {
    CardStatus.START: QColor("#7c6cff"),
    CardStatus.DRAFT: QColor("#5b6285"),
    CardStatus.QUEUED: QColor("#8c93b8"),
    CardStatus.RUNNING: QColor("#ff7aa2"),
    CardStatus.FAILED: QColor("#ff5c5c"),
    CardStatus.STALE: QColor("#e0a040"),
    CardStatus.DONE: QColor("#5ad19a"),
}
STATUS_LABELS: dict[CardStatus, str] = {
    CardStatus.START: "start",
    CardStatus.DRAFT: "not generated",
    CardStatus.QUEUED: "queued",
    CardStatus.RUNNING: "generating",
    CardStatus.FAILED: "failed",
    CardStatus.STALE: "stale",
    CardStatus.DONE: "done",
}
