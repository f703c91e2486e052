"""How wide the docks may be: the canvas keeps at least half of the window.

Pure arithmetic (no Qt) so the rule is easy to test at any window size.
"""

from __future__ import annotations

from dataclasses import dataclass

INSPECTOR_WIDTH = 430
"""The inspector's width when the window has room for it."""
INSPECTOR_MAX = 700
"""The inspector's widest, in a very wide window (its fields then show a long line whole)."""
INSPECTOR_GROWS_FROM = 2000
"""Up to this window width (a full HD screen's included) the inspector keeps
:data:`INSPECTOR_WIDTH` and the canvas takes the rest; beyond it, the inspector takes
:data:`INSPECTOR_GROWTH` of each further pixel, up to :data:`INSPECTOR_MAX` (reached at about
2,540 pixels: at 2560 x 1440 it stayed 430 pixels wide and cut a dialogue line short)."""
INSPECTOR_GROWTH = 0.5
INSPECTOR_MIN = 250
"""The inspector's narrowest: its editors wrap (a label goes above its field) rather than
scroll sideways, so that a window on half of a laptop screen (about 640 pixels) holds it
beside the tree."""
LEFT_WIDTH = 270
"""The queue / cast dock's width when the window has room for it."""
LEFT_MIN = 200
WIDE_WINDOW = 1500
"""From this width on the cast dock stays open beside the canvas; narrower windows
collapse it (View > Cast & world brings it back)."""
CANVAS_SHARE = 0.5
CANVAS_MIN = 370
"""In a narrow window (below about 800 pixels) the canvas and the branch player under it keep
this much, the docks shrinking to their minimum widths first."""
INSPECTOR_ROOM_MIN = 254
"""The inspector's least width while the canvas takes :data:`CANVAS_ROOM`: its width in a
window on half of a laptop screen (640 pixels), where the Start panel's boxes still fit under
their names without scrolling sideways."""
CANVAS_ROOM = 500
"""What the canvas keeps, where the docks' least widths allow it, in a window narrower than
about 1,000 pixels: two columns of cards whole at the zoom a project opens at. At 800 x 600
the inspector took half of the window and the tree showed one card and a half across; the
docks now give back a pixel for each pixel the window loses, down to their least widths."""


@dataclass(frozen=True, slots=True)
class DockWidths:
    inspector: int
    left: int  # 0: the left docks are collapsed

    def canvas(self, window_width: int) -> int:
        return window_width - self.inspector - self.left


def inspector_width(window_width: int) -> int:
    """The inspector's width where the window has room for it (see :data:`INSPECTOR_GROWS_FROM`)."""
    extra = max(0, window_width - INSPECTOR_GROWS_FROM) * INSPECTOR_GROWTH
    return min(INSPECTOR_MAX, INSPECTOR_WIDTH + int(extra))


@dataclass(frozen=True, slots=True)
class ChosenWidth:
    """A width the user gave the inspector by dragging its splitter, and how wide the window
    was then."""

    width: int
    window_width: int


def dock_widths(window_width: int, *, left_open: bool, inspector: int | None = None) -> DockWidths:
    """The docks' widths for a window ``window_width`` pixels wide; ``inspector``: the width
    wanted for the inspector instead of :func:`inspector_width`'s.

    Both docks shrink in proportion when the canvas would get less than half of the window,
    down to their minimum widths (below about 1,160 pixels the canvas gets less than half).
    Below about 1,000 pixels the canvas keeps :data:`CANVAS_ROOM` rather than half, as far as
    the inspector's least width allows, and never less than :data:`CANVAS_MIN`."""
    canvas = max(CANVAS_MIN, min(CANVAS_ROOM, window_width - INSPECTOR_ROOM_MIN - 16))
    budget = min(int(window_width * (1 - CANVAS_SHARE)), window_width - canvas) - 16  # less the separators
    inspector = inspector_width(window_width) if inspector is None else inspector
    left = LEFT_WIDTH if left_open else 0
    if inspector + left <= budget:
        return DockWidths(inspector, left)
    scale = budget / (inspector + left)
    inspector, left = int(inspector * scale), int(left * scale)
    return DockWidths(max(INSPECTOR_MIN, inspector), max(LEFT_MIN, left) if left else 0)


def kept_inspector_width(chosen: ChosenWidth, window_width: int, *, left_open: bool) -> int:
    """The inspector's width, chosen by the user, in a window ``window_width`` pixels wide.

    In a window at least as wide as the one it was chosen in, the user's width holds whatever
    room it leaves the canvas. In a narrower one the inspector gives back what the window
    lost, as far as needed for the canvas to keep its share (:func:`dock_widths`): a width
    chosen in a 2560-pixel window does not leave a 1280-pixel one a sliver of tree, and a
    small narrowing changes the width by no more than the window's."""
    if window_width >= chosen.window_width:
        return chosen.width
    room = dock_widths(window_width, left_open=left_open, inspector=chosen.width).inspector
    return min(chosen.width, max(room, chosen.width - (chosen.window_width - window_width)))
