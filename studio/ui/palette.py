"""Colours and fonts shared by the painted views (cards, chart, strip)."""

from __future__ import annotations

from PySide6.QtGui import QColor

from studio.ui.node_summary import CardStatus

# The painted views read these names at paint time (``palette.TEXT``), so switching the
# scheme rebinds them (:func:`use_scheme`) and a repaint shows the new colours.
_SCHEMES: dict[str, dict[str, str | tuple[int, int, int, int]]] = {
    "dark": {
        "BACKGROUND": "#161821", "GRID_DOT": "#23263a", "CARD": "#242838", "CARD_HOVER": "#2b3045",
        "CARD_BORDER": "#363c55", "CARD_SELECTED": "#ff7aa2", "SEARCH_HIT": "#ffd166", "TEXT": "#e8e9f3",
        "TEXT_DIM": "#9aa0bd", "POSTER_EMPTY": "#1d2030", "EDGE": "#4a5275", "EDGE_BRANCH": "#ff7aa2",
        "ACCENT": "#ff7aa2", "TRACK": (255, 255, 255, 28), "NEGATIVE": "#ff7a7a", "POSITIVE": "#5ad19a",
        "STAMINA": "#5ad19a", "SOCIAL": "#5aa9ff", "ENTERTAINMENT": "#ffb84d", "FAILED_MARK": "#ff5c5c",
    },
    "light": {
        "BACKGROUND": "#eceef5", "GRID_DOT": "#d3d7e6", "CARD": "#ffffff", "CARD_HOVER": "#f7f4fb",
        "CARD_BORDER": "#c9cddc", "CARD_SELECTED": "#c8336a", "SEARCH_HIT": "#e0a800", "TEXT": "#1e2130",
        "TEXT_DIM": "#5d6482", "POSTER_EMPTY": "#dfe2ee", "EDGE": "#a3a9c4", "EDGE_BRANCH": "#c8336a",
        "ACCENT": "#c8336a", "TRACK": (20, 24, 48, 30), "NEGATIVE": "#d6334a", "POSITIVE": "#177a4c",
        # Deeper than the dark scheme's: a thin line or bar on white stays readable (3:1 or more).
        "STAMINA": "#23a06a", "SOCIAL": "#2b7fd9", "ENTERTAINMENT": "#d98300",
        # The failed status's red is too pale for the "!" on a light empty poster (2.3:1).
        "FAILED_MARK": "#d6334a",
    },
}

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
TRACK = QColor(255, 255, 255, 28)  # the empty part of bars and rings
NEGATIVE = QColor("#ff7a7a")  # a state that went down
POSITIVE = QColor("#5ad19a")  # a state that went up (text)
FAILED_MARK = QColor("#ff5c5c")  # a failed card's "!" on its empty poster: 3:1 or more there
ON_IMAGE = QColor("#e8e9f3")  # text over a poster or a dark badge, in both schemes
SCHEME = "dark"


def use_scheme(name: str) -> None:
    """Rebind the colours above to the ``dark`` or ``light`` scheme."""
    global SCHEME
    colors = _SCHEMES[name]
    for key, value in colors.items():
        globals()[key] = QColor(*value) if isinstance(value, tuple) else QColor(value)
    for stat in STAT_COLORS:  # the same dict object: views holding it see the new colours
        STAT_COLORS[stat] = globals()[stat.upper()]
    SCHEME = name


STAMINA = QColor("#5ad19a")
SOCIAL = QColor("#5aa9ff")
ENTERTAINMENT = QColor("#ffb84d")
STAT_COLORS: dict[str, QColor] = {"stamina": STAMINA, "social": SOCIAL, "entertainment": ENTERTAINMENT}
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
