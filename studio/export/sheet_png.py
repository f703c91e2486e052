"""Storyboard sheet pages as PNG images (Pillow)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw

from studio.export.branch import Branch, Turn
from studio.export.drawing import draw_state_bars, fit_image, line_height, load_font, text_width, wrap_text
from studio.export.sheet_layout import (
    FOOTER,
    MARGIN,
    SMALL_SIZE,
    TITLE_SIZE,
    SheetLayout,
    page_label,
    sheet_subtitle,
    turn_heading,
)

DPI = 150
INK = (30, 30, 38)
MUTED = (110, 110, 122)
RULE = (200, 200, 210)


def png_page_paths(out: Path, pages: int) -> list[Path]:
    """``out`` for a single page; ``name-01.png``, ``name-02.png``... for more."""
    if pages == 1:
        return [out]
    digits = max(2, len(str(pages)))
    return [out.with_name(f"{out.stem}-{page:0{digits}d}{out.suffix or '.png'}") for page in range(1, pages + 1)]


class PngPage:
    def __init__(self, layout: SheetLayout, dpi: int = DPI) -> None:
        self.scale = dpi / 72.0
        self.layout = layout
        width, height = layout.page
        self.image = Image.new("RGB", (round(width * self.scale), round(height * self.scale)), "white")
        self.draw = ImageDraw.Draw(self.image)

    def px(self, value: float) -> int:
        return round(value * self.scale)

    def text(self, xy: tuple[float, float], text: str, size: float, bold: bool = False,
             fill: tuple[int, int, int] = INK, anchor: str = "la") -> None:
        self.draw.text((self.px(xy[0]), self.px(xy[1])), text, font=load_font(self.px(size), bold), fill=fill,
                       anchor=anchor)

    def header(self, title: str, subtitle: str, page: int, pages: int) -> None:
        width, height = self.layout.page
        self.text((MARGIN, MARGIN), title, TITLE_SIZE, bold=True)
        self.text((MARGIN, MARGIN + TITLE_SIZE * 1.45), subtitle, SMALL_SIZE, fill=MUTED)
        self.text((width - MARGIN, height - MARGIN - FOOTER / 2), page_label(page, pages), SMALL_SIZE, fill=MUTED,
                  anchor="rm")

    def cell(self, slot: int, turn: Turn, poster: Image.Image) -> None:
        cell = self.layout.cell(slot)
        parts = self.layout.inside(cell)
        px = self.px
        self.draw.rectangle((px(cell.x), px(cell.y), px(cell.right), px(cell.bottom)), outline=RULE, width=1)
        box = parts.poster
        fitted = fit_image(poster, px(box.w), px(box.h))
        self.image.paste(fitted, (px(box.x) + (px(box.w) - fitted.width) // 2,
                                  px(box.y) + (px(box.h) - fitted.height) // 2))
        self.text((cell.x + (box.x - cell.x), parts.heading_y), turn_heading(turn), parts.font_size, bold=True)
        font = load_font(px(parts.font_size))
        measure: Callable[[str], float] = lambda s: text_width(font, s)  # noqa: E731
        lines = wrap_text(" ".join(turn.instruction.split()) or "(no instruction)", measure, px(parts.instruction.w),
                          parts.lines)
        step = line_height(font)
        for row, line in enumerate(lines):
            self.draw.text((px(parts.instruction.x), px(parts.instruction.y) + row * step), line, font=font, fill=INK)
        bars = parts.bars
        bar_font = load_font(px(parts.font_size * 0.9))
        draw_state_bars(self.draw, (px(bars.x), px(bars.y), px(bars.right), px(bars.y) + step * 3), turn.state,
                        bar_font, turn.deltas, text_fill=INK, track_fill=(225, 225, 232))


def render_png_page(layout: SheetLayout, branch: Branch, title: str, page: int, pages: int,
                    turns: list[Turn], posters: list[Image.Image]) -> Image.Image:
    canvas = PngPage(layout)
    canvas.header(title, sheet_subtitle(branch), page, pages)
    for slot, (turn, poster) in enumerate(zip(turns, posters, strict=True)):
        canvas.cell(slot, turn, poster)
    return canvas.image
