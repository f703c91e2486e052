"""How wide the docks may be: the canvas keeps at least half of the window.

Pure arithmetic (no Qt) so the rule is easy to test at any window size.
"""

from __future__ import annotations

from dataclasses import dataclass

INSPECTOR_WIDTH = 430
"""The inspector's width when the window has room for it."""
INSPECTOR_MIN = 380
LEFT_WIDTH = 270
"""The queue / cast dock's width when the window has room for it."""
LEFT_MIN = 200
WIDE_WINDOW = 1500
"""From this width on the cast dock stays open beside the canvas; narrower windows
collapse it (View > Cast & world brings it back)."""
CANVAS_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class DockWidths:
    inspector: int
    left: int  # 0: the left docks are collapsed

    def canvas(self, window_width: int) -> int:
        return window_width - self.inspector - self.left


def dock_widths(window_width: int, *, left_open: bool) -> DockWidths:
    """The docks' widths for a window ``window_width`` pixels wide.

    Both docks shrink in proportion when the canvas would get less than half of the window,
    down to their minimum widths (below about 1,160 pixels the canvas gets less than half)."""
    budget = int(window_width * (1 - CANVAS_SHARE)) - 16  # less the docks' separators
    inspector, left = INSPECTOR_WIDTH, LEFT_WIDTH if left_open else 0
    if inspector + left <= budget:
        return DockWidths(inspector, left)
    scale = budget / (inspector + left)
    inspector, left = int(inspector * scale), int(left * scale)
    return DockWidths(max(INSPECTOR_MIN, inspector), max(LEFT_MIN, left) if left else 0)
