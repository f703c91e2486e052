"""The episode panel folded away in a short window, so that the story tree has the height.

At 800x600 the branch player, chart and filmstrip under the tree kept their least height
(about 290 pixels) and left the tree some 230: about one card could be read. Where the area
the two share is shorter than :data:`SHORT_AREA_HEIGHT`, the panel starts folded to its
splitter's handle; the tree takes the whole height. Dragging the handle up brings the panel
back (and from then on the user's place for it holds), as does Play, which needs the player.
A window made taller unfolds a panel the rule folded."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QSplitter

SHORT_AREA_HEIGHT = 560
"""The tree and episode panel's shared height (the window's less the menu, toolbar and status
bars: about 640 - 80) below which the episode panel starts folded."""
UNFOLDED_SHARE = 0.3
"""The episode panel's share of the height when it is brought back (at least its least height)."""
FOLDED_TIP = "Drag up to show the branch player, chart and filmstrip (Play brings them back too)"


def folds_by_default(area_height: int) -> bool:
    """Whether an area ``area_height`` pixels tall starts with the episode panel folded."""
    return 0 < area_height < SHORT_AREA_HEIGHT


class EpisodeFold(QObject):
    """Folds ``splitter``'s second pane (the episode panel) in a short area, until the user
    places the splitter's handle themselves."""

    def __init__(self, splitter: QSplitter) -> None:
        super().__init__(splitter)
        self.splitter = splitter
        self.user_placed = False
        """The user dragged the handle (or asked for the panel): the rule no longer moves it."""
        self.folded_by_rule = False
        splitter.setCollapsible(1, True)
        splitter.splitterMoved.connect(self._moved)  # the user's drags only, not setSizes
        splitter.installEventFilter(self)

    @property
    def folded(self) -> bool:
        sizes = self.splitter.sizes()
        return len(sizes) > 1 and sizes[1] == 0 and sizes[0] > 0

    def _moved(self, _pos: int, _index: int) -> None:
        self.user_placed = True
        self.folded_by_rule = self.folded_by_rule and self.folded
        self._tip()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.splitter and event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self.follow()
        return False

    def follow(self) -> None:
        """Fold or unfold the panel for the area's height now, unless the user placed it."""
        if self.user_placed or not self.splitter.isVisible():
            return
        short = folds_by_default(self.splitter.height())
        if short and not self.folded:
            total = sum(self.splitter.sizes())
            self.splitter.setSizes([total, 0])
            self.folded_by_rule = True
        elif not short and self.folded_by_rule:
            self._unfold()
        self._tip()

    def open(self) -> None:
        """Bring the panel back (Play needs the player): the user's wish, which the rule keeps."""
        if self.folded:
            self._unfold()
            self.user_placed = True
            self._tip()

    def _unfold(self) -> None:
        total = sum(self.splitter.sizes())
        panel = self.splitter.widget(1)
        least = panel.minimumSizeHint().height() if panel is not None else 0
        wanted = min(max(least, int(total * UNFOLDED_SHARE)), total)
        self.splitter.setSizes([total - wanted, wanted])
        self.folded_by_rule = False

    def _tip(self) -> None:
        handle = self.splitter.handle(1)
        tip = FOLDED_TIP if self.folded else ""
        if handle is not None and handle.toolTip() != tip:
            handle.setToolTip(tip)
