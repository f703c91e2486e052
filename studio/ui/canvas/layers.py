"""Scene-wide layers: every edge in one item, and the zoomed-out overview of all nodes.

Ten thousand edge items would cost ten thousand Python paint calls per frame; instead
the edges of each column are one cached QPainterPath and only the columns in the exposed
rect are drawn. Likewise, far zoomed out, the cards are hidden and the overview layer
fills one path of rectangles per status colour.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from studio.ui import palette
from studio.ui.canvas.geometry import CARD_H, CARD_W, in_port, out_port
from studio.ui.node_summary import CardStatus
from studio.ui.tree_layout import COLUMN_WIDTH, ROW_HEIGHT, Cell


def edge_path(path: QPainterPath, start: QPointF, end: QPointF) -> None:
    mid = (start.x() + end.x()) / 2
    path.moveTo(start)
    if abs(start.y() - end.y()) < 0.5:
        path.lineTo(end)
    else:
        path.cubicTo(QPointF(mid, start.y()), QPointF(mid, end.y()), end)


BRANCH_PEN_PAD = 120.0
"""Scene units around the branch path that its pen may cover (3 px cosmetic at 1/40 zoom)."""

EDGE_BAND_ROWS = 24
"""Edges are cached in paths of this many rows per column, so a frame draws only nearby ones."""


class EdgeLayer(QGraphicsItem):
    """All parent-child edges, one cached path per column gap, plus the selected branch."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setZValue(-10)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._columns: dict[int, list[tuple[QRectF, tuple[int, int]]]] = {}
        self._bands: dict[tuple[int, int], list[tuple[Cell, Cell]]] = {}
        self._paths: dict[tuple[int, int], QPainterPath] = {}
        self._branch = QPainterPath()
        self._rect = QRectF()

    def rebuild(self, cells: Mapping[str, Cell], parent_of: Mapping[str, str | None], bounds: QRectF) -> None:
        self.prepareGeometryChange()
        # Paths are built lazily, band by band, the first time a band is drawn.
        bands: dict[tuple[int, int], list[tuple[Cell, Cell]]] = {}
        extents: dict[tuple[int, int], list[float]] = {}
        for node_id, cell in cells.items():
            parent = parent_of.get(node_id)
            if parent is None or parent not in cells:
                continue
            key = (cell.depth - 1, cell.row // EDGE_BAND_ROWS)
            parent_cell = cells[parent]
            bands.setdefault(key, []).append((parent_cell, cell))
            extent = extents.get(key)
            if extent is None:
                extents[key] = [parent_cell.row, cell.row]
            else:
                extent[0] = min(extent[0], parent_cell.row)
                extent[1] = max(extent[1], cell.row)
        columns: dict[int, list[tuple[QRectF, tuple[int, int]]]] = {}
        for key, (top_row, bottom_row) in sorted(extents.items()):
            depth = key[0]
            rect = QRectF(depth * COLUMN_WIDTH, top_row * ROW_HEIGHT, COLUMN_WIDTH + CARD_W,
                          (bottom_row - top_row) * ROW_HEIGHT + CARD_H)
            columns.setdefault(depth, []).append((rect, key))
        self._columns = columns
        self._bands = bands
        self._paths = {}
        self._rect = QRectF(bounds)
        self.update()

    def _band_path(self, key: tuple[int, int]) -> QPainterPath:
        path = self._paths.get(key)
        if path is None:
            path = QPainterPath()
            for parent_cell, cell in self._bands.get(key, ()):
                edge_path(path, out_port(parent_cell), in_port(cell))
            self._paths[key] = path
        return path

    def set_branch(self, cells: Mapping[str, Cell], branch: Iterable[str]) -> None:
        path = QPainterPath()
        previous: Cell | None = None
        for node_id in branch:
            cell = cells.get(node_id)
            if cell is None:
                break
            if previous is not None:
                edge_path(path, out_port(previous), in_port(cell))
            previous = cell
        if path == self._branch:
            return
        # Only where the highlighted path was or now is: the layer spans the whole tree, and
        # updating all of it would repaint every card in view each time a take arrives.
        pad = BRANCH_PEN_PAD
        dirty = path.boundingRect().united(self._branch.boundingRect()).adjusted(-pad, -pad, pad, pad)
        self._branch = path
        self.update(dirty)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        exposed = option.exposedRect
        first = max(0, int(exposed.left() // COLUMN_WIDTH) - 1)
        last = int(exposed.right() // COLUMN_WIDTH) + 1
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, lod > 0.3)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        pen = QPen(palette.EDGE, 2.0)
        pen.setCosmetic(lod < 0.3)
        painter.setPen(pen)
        for depth in range(first, last + 1):
            for rect, key in self._columns.get(depth, ()):
                if rect.intersects(exposed):
                    painter.drawPath(self._band_path(key))
        if not self._branch.isEmpty():
            branch_pen = QPen(palette.EDGE_BRANCH, 3.0)
            branch_pen.setCosmetic(lod < 0.3)
            painter.setPen(branch_pen)
            painter.drawPath(self._branch)


class OverviewLayer(QGraphicsItem):
    """Every node as a filled rectangle in its status colour (shown only zoomed out).

    A few hundred rectangles in view are filled directly (cells found through the layout
    grid); when thousands are in view, one cached image of the whole tree is drawn instead.
    """

    DIRECT_LIMIT = 5000
    IMAGE_SIDE = 4096

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(-5)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._rect = QRectF()
        self._cells: Mapping[str, Cell] = {}
        self._statuses: Mapping[str, CardStatus] = {}
        self._grid: dict[tuple[int, int], str] = {}
        self._marked: list[tuple[str, bool]] = []
        """Marked turns, each with whether it is the selected one (else a match)."""
        self._image: QImage | None = None

    def set_source(self, cells: Mapping[str, Cell], statuses: Mapping[str, CardStatus], bounds: QRectF, *,
                   hits: Iterable[str] = (), current: str | None = None) -> None:
        """Remember what to draw; the cached image is rebuilt lazily, only when needed. ``hits``
        (Find's matches) and ``current`` (the selected turn) are marked as their cards frame
        them: the matches in the search colour, the selection in its own, drawn over them."""
        self.prepareGeometryChange()
        if cells is not self._cells or len(self._grid) != len(cells):
            self._grid = {(c.depth, c.row): n for n, c in cells.items()}
        self._cells, self._statuses = cells, statuses
        self._rect = QRectF(bounds)
        self._image = None
        self._marked = self._marks(hits, current)
        self.update()

    def set_marks(self, hits: Iterable[str], current: str | None) -> None:
        """Mark Find's matches and the selected turn, keeping the cached image of the cells: the
        marks are drawn over it, so an arrow key or a letter typed into Find on a tree of
        thousands of turns no longer repaints the whole tree into a new image."""
        marked = self._marks(hits, current)
        if marked != self._marked:
            self._marked = marked
            self.update()

    @staticmethod
    def _marks(hits: Iterable[str], current: str | None) -> list[tuple[str, bool]]:
        marked = [(node_id, False) for node_id in hits if node_id != current]
        if current is not None:
            marked.append((current, True))  # last: drawn over a match next to it
        return marked

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def _build_image(self) -> QImage:
        scale = min(1.0, self.IMAGE_SIDE / max(1.0, self._rect.width(), self._rect.height()))
        image = QImage(max(1, int(self._rect.width() * scale)), max(1, int(self._rect.height() * scale)),
                       QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(0)
        painter = QPainter(image)
        painter.scale(scale, scale)
        for node_id, cell in self._cells.items():
            color = palette.STATUS_COLORS[self._statuses.get(node_id, CardStatus.DRAFT)]
            painter.fillRect(QRectF(cell.x, cell.y, CARD_W, CARD_H), color)
        painter.end()
        return image

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        exposed = option.exposedRect
        first_depth = max(0, int((exposed.left() - CARD_W) // COLUMN_WIDTH))
        last_depth = int(exposed.right() // COLUMN_WIDTH) + 1
        first_row = max(0, int((exposed.top() - CARD_H) // ROW_HEIGHT))
        last_row = int(exposed.bottom() // ROW_HEIGHT) + 1
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        if (last_depth - first_depth + 1) * (last_row - first_row + 1) <= self.DIRECT_LIMIT:
            for depth in range(first_depth, last_depth + 1):
                for row in range(first_row, last_row + 1):
                    node_id = self._grid.get((depth, row))
                    if node_id is not None:
                        color = palette.STATUS_COLORS[self._statuses.get(node_id, CardStatus.DRAFT)]
                        painter.fillRect(QRectF(depth * COLUMN_WIDTH, row * ROW_HEIGHT, CARD_W, CARD_H), color)
        else:
            if self._image is None:
                self._image = self._build_image()
            # Only the exposed part, nearest-neighbour: this is a map, not a photograph.
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
            target = exposed.intersected(self._rect)
            sx = self._image.width() / max(1.0, self._rect.width())
            sy = self._image.height() / max(1.0, self._rect.height())
            source = QRectF((target.left() - self._rect.left()) * sx, (target.top() - self._rect.top()) * sy,
                            target.width() * sx, target.height() * sy)
            painter.drawImage(target, self._image, source)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        pad = max(30.0, 6.0 / max(lod, 1e-6))  # marks stay visible however far out we zoom
        for node_id, selected in self._marked:
            cell = self._cells.get(node_id)
            if cell is not None:
                painter.fillRect(QRectF(cell.x - pad, cell.y - pad, CARD_W + 2 * pad, CARD_H + 2 * pad),
                                 palette.CARD_SELECTED if selected else palette.SEARCH_HIT)
