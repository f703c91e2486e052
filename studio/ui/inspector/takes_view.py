"""A node's takes side by side (2 to 4 at once), each playing its clip; pick one.

Tiles are rebuilt only when the node's takes change; a tile's clip is decoded off the GUI
thread by the shared clip cache and loops while it is visible.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from studio.core.model import Take, TakeStatus
from studio.ui.media_cache import ClipCache
from studio.ui.player import Player


def take_caption(index: int, take: Take) -> str:
    return f"Take {index + 1}"


class TakeTile(QFrame):
    chosen = Signal(str)
    focused = Signal(str)

    def __init__(self, index: int, take: Take, selected: bool, clips: ClipCache, resolve: Callable[[str], str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.index = index
        self.take = take
        self.selected = selected
        self.setObjectName("takeTileSelected" if selected else "takeTile")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.player = Player(clips, self, compact=True)
        self.player.setMinimumHeight(110)
        self.caption = QLabel(take_caption(index, take), self)
        self.caption.setObjectName("tileCaption")
        self.caption.setToolTip(f"seed {take.seed} · {take.engine}")
        badges = []
        if take.stale:
            badges.append("stale")
        if take.status != TakeStatus.DONE:
            badges.append(take.status.value)
        self.badge = QLabel(" · ".join(badges), self)
        self.badge.setObjectName("staleBadge" if take.stale else "dimLabel")
        self.badge.setVisible(bool(badges))  # an empty badge would still paint its box
        self.use_button = QPushButton("✓ Selected" if selected else "Use this take", self)
        self.use_button.setEnabled(not selected and take.status == TakeStatus.DONE)
        self.use_button.clicked.connect(lambda: self.chosen.emit(take.id))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        layout.addWidget(self.player, 1)
        row = QHBoxLayout()
        row.addWidget(self.caption)
        row.addStretch(1)
        row.addWidget(self.badge)
        layout.addLayout(row)
        layout.addWidget(self.use_button)
        if take.clip_path:
            path = resolve(take.clip_path)
            if path:
                self.player.set_clips([path], autoplay=True)
        elif take.error:
            self.player.view.set_image(None, take.error[:80])

    def mousePressEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        self.focused.emit(self.take.id)
        super().mousePressEvent(event)


class TakesView(QWidget):
    take_chosen = Signal(str)
    take_focused = Signal(str)

    def __init__(self, clips: ClipCache, resolve: Callable[[str], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.clips = clips
        self.resolve = resolve
        self.tiles: list[TakeTile] = []
        self._key: tuple[object, ...] = ()
        self.per_view = QComboBox(self)
        self.per_view.addItems(["2", "3", "4"])
        self.per_view.setToolTip("How many takes to compare side by side")
        self.per_view.currentTextChanged.connect(lambda _t: self._resize_tiles())
        self.count_label = QLabel("No takes yet", self)
        self.count_label.setObjectName("dimLabel")
        self._row = QWidget(self)
        self._row_layout = QHBoxLayout(self._row)
        self._row_layout.setContentsMargins(0, 0, 0, 0)
        self._row_layout.setSpacing(6)
        self._row_layout.addStretch(1)
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setWidget(self._row)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setMinimumHeight(200)
        self.scroll_area.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        header = QHBoxLayout()
        header.addWidget(self.count_label)
        header.addStretch(1)
        header.addWidget(QLabel("side by side", self))
        header.addWidget(self.per_view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.scroll_area)

    def set_takes(self, takes: list[Take], selected_id: str | None) -> None:
        key = (tuple(id(take) for take in takes), selected_id)
        if key == self._key:
            return
        self._key = key
        # Keep the tiles of takes that did not change: a new take adds one tile instead of
        # rebuilding every player (and re-laying out the whole inspector).
        reusable = {(tile.index, id(tile.take), tile.selected): tile for tile in self.tiles}
        tiles: list[TakeTile] = []
        for index, take in enumerate(takes):
            tile = reusable.pop((index, id(take), take.id == selected_id), None)
            if tile is None:
                tile = TakeTile(index, take, take.id == selected_id, self.clips, self.resolve, self._row)
                tile.chosen.connect(self.take_chosen.emit)
                tile.focused.connect(self.take_focused.emit)
            tiles.append(tile)
        for tile in reusable.values():
            tile.player.pause()
            tile.deleteLater()
        for position, tile in enumerate(tiles):
            if self._row_layout.indexOf(tile) != position:
                self._row_layout.insertWidget(position, tile)
        self.tiles = tiles
        count = len(takes)
        self.count_label.setText(f"{count} take{'s' if count != 1 else ''}" if count else "No takes yet")
        self._resize_tiles()
        if selected_id:
            for tile in self.tiles:
                if tile.take.id == selected_id:
                    self.scroll_area.ensureWidgetVisible(tile)

    def _resize_tiles(self) -> None:
        per_view = int(self.per_view.currentText())
        shown = max(1, min(per_view, len(self.tiles) or 1))
        width = max(140, (self.scroll_area.viewport().width() - 6 * per_view) // shown)
        for tile in self.tiles:
            tile.setFixedWidth(width)

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        super().resizeEvent(event)
        self._resize_tiles()
