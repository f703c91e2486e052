"""Storyboard sheet geometry shared by the PDF and PNG renderers.

Everything is measured in points from the page's top-left corner; the PNG renderer
scales points to pixels, the PDF renderer flips the y axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image

from studio.export.branch import Branch, Turn
from studio.export.errors import ExportError

A4_LANDSCAPE = (841.89, 595.28)
MARGIN = 28.0
HEADER = 40.0
FOOTER = 20.0
GUTTER = 10.0
TITLE_SIZE = 16.0
SMALL_SIZE = 8.5
INSTRUCTION_LINES = 3


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True)
class CellLayout:
    """Where the parts of one turn go inside its cell."""

    poster: Rect
    heading_y: float
    instruction: Rect
    bars: Rect
    font_size: float
    lines: int


@dataclass(frozen=True)
class SheetLayout:
    page: tuple[float, float]
    columns: int
    rows: int
    aspect: float
    """Poster height / width."""

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def pages(self, turns: int) -> int:
        return max(1, math.ceil(turns / self.per_page))

    def cell(self, slot: int) -> Rect:
        width, height = self.page
        grid_w = width - 2 * MARGIN
        grid_h = height - 2 * MARGIN - HEADER - FOOTER
        cell_w = (grid_w - GUTTER * (self.columns - 1)) / self.columns
        cell_h = (grid_h - GUTTER * (self.rows - 1)) / self.rows
        column, row = slot % self.columns, slot // self.columns
        return Rect(MARGIN + column * (cell_w + GUTTER), MARGIN + HEADER + row * (cell_h + GUTTER), cell_w, cell_h)

    def inside(self, cell: Rect) -> CellLayout:
        """Poster on top, then 'Turn N', the instruction, and three state bars."""
        pad = max(2.0, min(6.0, cell.w / 40))
        size = max(4.5, min(10.0, cell.w / 24, cell.h / 14))
        lines = INSTRUCTION_LINES
        while True:
            line = size * 1.25
            text_h = line * (1 + lines) + line * 3 + 3 * pad
            poster_h = min((cell.w - 2 * pad) * self.aspect, cell.h - text_h - pad)
            if poster_h >= cell.h * 0.4 or (lines == 1 and size <= 4.5):
                break
            if lines > 1:
                lines -= 1
            else:
                size = max(4.5, size * 0.85)
        poster_h = max(poster_h, 1.0)
        poster = Rect(cell.x + pad, cell.y + pad, cell.w - 2 * pad, poster_h)
        heading_y = poster.bottom + pad
        instruction = Rect(cell.x + pad, heading_y + line, cell.w - 2 * pad, line * lines)
        bars = Rect(cell.x + pad, instruction.bottom + pad, cell.w - 2 * pad,
                    max(line * 3, cell.bottom - pad - instruction.bottom - pad))
        return CellLayout(poster, heading_y, instruction, bars, size, lines)


def sheet_title(branch: Branch, title: str) -> str:
    return title.strip() or branch.project_name


def sheet_subtitle(branch: Branch) -> str:
    return f"{len(branch.turns)} turns · branch to node {branch.leaf_id}"


def page_label(page: int, pages: int) -> str:
    return f"Page {page} of {pages}"


def turn_heading(turn: Turn) -> str:
    return f"Turn {turn.number}"


def poster_image(turn: Turn) -> Image.Image:
    """The take's poster, or the clip's first frame when the poster file is missing, is
    not an image, or is too large to decode safely (see :func:`open_image`)."""
    from studio.storage.images import MAX_IMAGE_PIXELS, open_image
    from studio.storage.media import MediaError

    if turn.poster is not None:
        try:
            return open_image(turn.poster, what="poster")
        except MediaError:
            pass
    import imageio_ffmpeg
    import numpy as np

    try:
        reader = imageio_ffmpeg.read_frames(str(turn.clip), pix_fmt="rgb24")
        try:
            meta = next(reader)
            width, height = meta["size"]
            if width * height > MAX_IMAGE_PIXELS:
                raise ExportError(f"The clip of {turn.label} is {width} x {height} pixels; the limit is "
                                  f"{MAX_IMAGE_PIXELS / 1e6:.1f} megapixels.", hint="Re-roll the turn.")
            data = next(reader)
        finally:
            reader.close()
    except (RuntimeError, StopIteration, OSError) as error:
        raise ExportError(f"The clip of {turn.label} can't be read: {error}.") from None
    return Image.fromarray(np.frombuffer(data, dtype=np.uint8).reshape(height, width, 3).copy())
