"""Scene-wide layers: every edge in one item, and the zoomed-out overview of all nodes.

Ten thousand edge items would cost ten thousand Python paint calls per frame; instead
the edges of each column are one cached QPainterPath and only the columns in the exposed
rect are drawn. Likewise, far zoomed out, the cards are hidden and the overview layer
fills one path of rectangles per status colour.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from studio.ui import palette
from studio.ui.canvas.geometry import CARD_H, CARD_W, in_port, out_port
from studio.ui.node_summary import CardStatus
from studio.ui.tree_layout import COLUMN_WIDTH, Cell


def edge_path(path: QPainterPath, start: QPointF, end: QPointF) -> None:
    mid = (start.x() + end.x()) / 2
    path.moveTo(start)
    if abs(start.y() - end.y()) < 0.5:
        path.lineTo(end)
    else:
        path.cubicTo(QPointF(mid, start.y()), QPointF(mid, end.y()), end)


class EdgeLayer(QGraphicsItem):
    """All parent-child edges, one cached path per column gap, plus the selected branch."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setZValue(-10)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._columns: dict[int, QPainterPath] = {}
        self._branch = QPainterPath()
        self._rect = QRectF()

    def rebuild(self, cells: Mapping[str, Cell], parent_of: Mapping[str, str | None], bounds: QRectF) -> None:
        self.prepareGeometryChange()
        columns: dict[int, QPainterPath] = {}
        for node_id, cell in cells.items():
            parent = parent_of.get(node_id)
            if parent is None or parent not in cells:
                continue
            path = columns.get(cell.depth - 1)
            if path is None:
                path = columns[cell.depth - 1] = QPainterPath()
            edge_path(path, out_port(cells[parent]), in_port(cell))
        self._columns = columns
        self._rect = QRectF(bounds)
        self.update()

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
        self._branch = path
        self.update()

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
            path = self._columns.get(depth)
            if path is not None:
                painter.drawPath(path)
        if not self._branch.isEmpty():
            branch_pen = QPen(palette.EDGE_BRANCH, 3.0)
            branch_pen.setCosmetic(lod < 0.3)
            painter.setPen(branch_pen)
            painter.drawPath(self._branch)


class OverviewLayer(QGraphicsItem):
    """Every node as a filled rectangle in its status colour (shown only far zoomed out)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(-5)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._paths: dict[CardStatus, QPainterPath] = {}
        self._marks = QPainterPath()
        self._rect = QRectF()
        self._dirty = True
        self._source: tuple[Mapping[str, Cell], Mapping[str, CardStatus], Iterable[str]] | None = None

    def set_source(self, cells: Mapping[str, Cell], statuses: Mapping[str, CardStatus], marked: Iterable[str],
                   bounds: QRectF) -> None:
        """Remember what to draw; paths are rebuilt lazily, only when the layer is shown."""
        self.prepareGeometryChange()
        self._source = (cells, statuses, marked)
        self._rect = QRectF(bounds)
        self._dirty = True
        self.update()

    def _rebuild(self) -> None:
        self._dirty = False
        if self._source is None:
            return
        cells, statuses, marked = self._source
        paths: dict[CardStatus, QPainterPath] = {}
        for node_id, cell in cells.items():
            status = statuses.get(node_id, CardStatus.DRAFT)
            path = paths.get(status)
            if path is None:
                path = paths[status] = QPainterPath()
            path.addRect(cell.x, cell.y, CARD_W, CARD_H)
        marks = QPainterPath()
        for node_id in marked:
            cell = cells.get(node_id)
            if cell is not None:
                marks.addRect(cell.x - 30, cell.y - 30, CARD_W + 60, CARD_H + 60)
        self._paths = paths
        self._marks = marks

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._dirty:
            self._rebuild()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(Qt.PenStyle.NoPen)
        for status, path in self._paths.items():
            painter.setBrush(palette.STATUS_COLORS[status])
            painter.drawPath(path)
        if not self._marks.isEmpty():
            painter.setBrush(palette.CARD_SELECTED)
            painter.drawPath(self._marks)
