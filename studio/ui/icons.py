"""Icons drawn as SVG text in ``resources/icons`` (no third-party artwork).

The line icons are drawn in one foreground colour (:data:`FOREGROUND`). They are rendered
by :class:`TintedSvgIconEngine`, which swaps that colour for the current scheme's at paint
time, at the size and device-pixel ratio asked for: the same icon is crisp on a high-DPI
screen and follows a switch between the light and dark schemes without being rebuilt.
Icons in other colours (the app logo) are plain SVG icons.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QIcon, QIconEngine, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

from studio.ui.resources import resource

FOREGROUND = "#dfe1ee"
PIXMAPS_PER_ICON = 16
"""Rendered sizes and colours kept per icon."""
_colors = {"normal": FOREGROUND, "disabled": "#737b9f"}


def set_icon_colors(normal: str, disabled: str) -> None:
    """The colours line icons are drawn in from now on (the theme calls this)."""
    _colors["normal"], _colors["disabled"] = normal, disabled


def icon_color(mode: QIcon.Mode = QIcon.Mode.Normal) -> str:
    return _colors["disabled" if mode == QIcon.Mode.Disabled else "normal"]


class TintedSvgIconEngine(QIconEngine):
    """An SVG whose :data:`FOREGROUND` is replaced by the current icon colour."""

    def __init__(self, svg: str) -> None:
        super().__init__()
        self.svg = svg
        self._renderers: dict[str, QSvgRenderer] = {}
        self._pixmaps: dict[tuple[int, int, float, str], QPixmap] = {}

    def _renderer(self, color: str) -> QSvgRenderer:
        renderer = self._renderers.get(color)
        if renderer is None:
            renderer = QSvgRenderer(QByteArray(self.svg.replace(FOREGROUND, color).encode()))
            self._renderers[color] = renderer
        return renderer

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        # A button repaints its icon often (hover, a neighbour's update): render the SVG once
        # per size and colour, then draw the picture.
        ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
        painter.drawPixmap(rect, self.scaledPixmap(rect.size(), mode, state, ratio))

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        return self.scaledPixmap(size, mode, state, 1.0)

    def scaledPixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float) -> QPixmap:  # noqa: N802
        color = icon_color(mode)
        key = (size.width(), size.height(), scale, color)
        cached = self._pixmaps.get(key)
        if cached is not None:
            return cached
        pixmap = QPixmap(QSize(max(1, round(size.width() * scale)), max(1, round(size.height() * scale))))
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self._renderer(color).render(painter, QRectF(pixmap.rect()))
        painter.end()
        pixmap.setDevicePixelRatio(scale)
        if len(self._pixmaps) >= PIXMAPS_PER_ICON:
            self._pixmaps.clear()
        self._pixmaps[key] = pixmap
        return pixmap

    def actualSize(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QSize:  # noqa: N802
        return size

    def clone(self) -> QIconEngine:
        return TintedSvgIconEngine(self.svg)


@cache
def icon(name: str) -> QIcon:
    path = resource("icons", f"{name}.svg")
    if not path.is_file():
        return QIcon()
    svg = path.read_text(encoding="utf-8")
    if FOREGROUND not in svg:
        return QIcon(str(path))
    return QIcon(TintedSvgIconEngine(svg))


ON_ACCENT = "#ffffff"


@cache
def icon_on_accent(name: str) -> QIcon:
    """``name`` drawn for a button filled with the accent colour: its accent-coloured and
    line parts in white, so the icon never disappears into the button (pink on pink)."""
    path = resource("icons", f"{name}.svg")
    if not path.is_file():
        return QIcon()
    svg = path.read_text(encoding="utf-8")
    for color in (FOREGROUND, "#ff7aa2"):
        svg = svg.replace(color, ON_ACCENT)
    pixmap = QPixmap(64, 64)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    QSvgRenderer(QByteArray(svg.encode())).render(painter, QRectF(0, 0, 64, 64))
    painter.end()
    return QIcon(pixmap)
