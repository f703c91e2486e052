"""Storyboard sheet as a PDF (reportlab), one page per grid of turns."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from PIL import Image

from studio.core.state import STAT_NAMES, STATE_MAX
from studio.export.branch import Branch, Turn
from studio.export.drawing import STAT_COLOURS, STAT_LABELS, fit_image, font_file, wrap_text
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

POSTER_DPI = 144
INK = (30 / 255, 30 / 255, 38 / 255)
MUTED = (110 / 255, 110 / 255, 122 / 255)
RULE = (200 / 255, 200 / 255, 210 / 255)
TRACK = (225 / 255, 225 / 255, 232 / 255)


@functools.lru_cache(maxsize=1)
def pdf_fonts() -> tuple[str, str]:
    """(regular, bold) font names: DejaVu when found (it covers far more than Latin-1), else Helvetica."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    regular, bold = font_file(False), font_file(True)
    if regular is None:
        return "Helvetica", "Helvetica-Bold"
    try:
        pdfmetrics.registerFont(TTFont("KamishibaiSans", str(regular)))
        pdfmetrics.registerFont(TTFont("KamishibaiSans-Bold", str(bold or regular)))
    except Exception:  # any font trouble: fall back to a built-in font
        return "Helvetica", "Helvetica-Bold"
    return "KamishibaiSans", "KamishibaiSans-Bold"


class PdfSheet:
    def __init__(self, path: Path, layout: SheetLayout, title: str) -> None:
        from reportlab.pdfgen import canvas

        self.layout = layout
        self.height = layout.page[1]
        self.canvas: Any = canvas.Canvas(str(path), pagesize=layout.page, pageCompression=1)
        self.canvas.setTitle(title)
        self.canvas.setCreator("Kamishibai Studio")
        self.regular, self.bold = pdf_fonts()

    def y(self, top: float) -> float:
        """Top-left y (down) to PDF y (up)."""
        return self.height - top

    def text(self, x: float, top: float, text: str, size: float, bold: bool = False,
             fill: tuple[float, float, float] = INK, align: str = "left") -> None:
        """Draw ``text`` with its line box starting at ``top``."""
        c = self.canvas
        c.setFillColorRGB(*fill)
        c.setFont(self.bold if bold else self.regular, size)
        baseline = self.y(top + size * 0.95)
        if align == "right":
            c.drawRightString(x, baseline, text)
        else:
            c.drawString(x, baseline, text)

    def width(self, text: str, size: float, bold: bool = False) -> float:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return float(stringWidth(text, self.bold if bold else self.regular, size))

    def page(self, branch: Branch, title: str, page: int, pages: int, turns: list[Turn],
             posters: list[Image.Image]) -> None:
        width, height = self.layout.page
        self.text(MARGIN, MARGIN, title, TITLE_SIZE, bold=True)
        self.text(MARGIN, MARGIN + TITLE_SIZE * 1.45, sheet_subtitle(branch), SMALL_SIZE, fill=MUTED)
        self.text(width - MARGIN, height - MARGIN - FOOTER / 2 - SMALL_SIZE / 2, page_label(page, pages), SMALL_SIZE,
                  fill=MUTED, align="right")
        for slot, (turn, poster) in enumerate(zip(turns, posters, strict=True)):
            self.cell(slot, turn, poster)
        self.canvas.showPage()

    def cell(self, slot: int, turn: Turn, poster: Image.Image) -> None:
        from reportlab.lib.utils import ImageReader

        c = self.canvas
        cell = self.layout.cell(slot)
        parts = self.layout.inside(cell)
        c.setStrokeColorRGB(*RULE)
        c.setLineWidth(0.5)
        c.rect(cell.x, self.y(cell.bottom), cell.w, cell.h, stroke=1, fill=0)
        box = parts.poster
        scale = POSTER_DPI / 72
        fitted = fit_image(poster, max(1, round(box.w * scale)), max(1, round(box.h * scale)))
        draw_w, draw_h = fitted.width / scale, fitted.height / scale
        c.drawImage(ImageReader(fitted), box.x + (box.w - draw_w) / 2, self.y(box.y + (box.h + draw_h) / 2),
                    width=draw_w, height=draw_h)
        size = parts.font_size
        self.text(box.x, parts.heading_y, turn_heading(turn), size, bold=True)
        lines = wrap_text(" ".join(turn.instruction.split()) or "(no instruction)", lambda s: self.width(s, size),
                          parts.instruction.w, parts.lines)
        for row, line in enumerate(lines):
            self.text(parts.instruction.x, parts.instruction.y + row * size * 1.25, line, size)
        self.bars(turn, parts.bars.x, parts.bars.y, parts.bars.w, size * 1.25, size * 0.9)

    def bars(self, turn: Turn, left: float, top: float, width: float, row_h: float, size: float) -> None:
        c = self.canvas
        label_w = max(self.width(f"{STAT_LABELS[n]} ", size) for n in STAT_NAMES)
        value_w = self.width(" 100 (+25)", size)
        bar_left, bar_right = left + label_w, left + width - value_w
        bar_h = max(2.0, row_h * 0.45)
        for row, name in enumerate(STAT_NAMES):
            row_top = top + row * row_h
            value = getattr(turn.state, name)
            change = 5 * getattr(turn.deltas, name)
            self.text(left, row_top + (row_h - size) / 2, STAT_LABELS[name], size)
            label = f"{value}" + (f" ({change:+d})" if change else "")
            self.text(left + width, row_top + (row_h - size) / 2, label, size, align="right")
            if bar_right - bar_left > 4:
                mid = row_top + row_h / 2
                c.setFillColorRGB(*TRACK)
                c.rect(bar_left, self.y(mid + bar_h / 2), bar_right - bar_left, bar_h, stroke=0, fill=1)
                filled = (bar_right - bar_left) * value / STATE_MAX
                if filled > 0:
                    c.setFillColorRGB(*(v / 255 for v in STAT_COLOURS[name]))
                    c.rect(bar_left, self.y(mid + bar_h / 2), filled, bar_h, stroke=0, fill=1)

    def save(self) -> None:
        self.canvas.save()
