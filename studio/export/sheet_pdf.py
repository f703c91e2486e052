"""The storyboard sheet as a PDF (reportlab): a :class:`~studio.export.storyboard.SheetCanvas`."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from PIL import Image

from studio.export.drawing import FONT_DIRS, fit_image, font_file
from studio.export.storyboard import Colour, Rect, StoryboardLayout, TextStyle

PICTURE_DPI = 150


@functools.lru_cache(maxsize=1)
def pdf_fonts() -> dict[TextStyle, str]:
    """Font names per style: DejaVu when found (it covers far more than Latin-1), else Helvetica."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    builtin = {TextStyle.REGULAR: "Helvetica", TextStyle.BOLD: "Helvetica-Bold", TextStyle.ITALIC: "Helvetica-Oblique"}
    regular, bold = font_file(False), font_file(True)
    if regular is None:
        return builtin
    italic = next((folder / "DejaVuSans-Oblique.ttf" for folder in FONT_DIRS
                   if (folder / "DejaVuSans-Oblique.ttf").is_file()), regular)
    try:
        pdfmetrics.registerFont(TTFont("KamishibaiSans", str(regular)))
        pdfmetrics.registerFont(TTFont("KamishibaiSans-Bold", str(bold or regular)))
        pdfmetrics.registerFont(TTFont("KamishibaiSans-Italic", str(italic)))
    except Exception:  # any font trouble: fall back to the built-in fonts
        return builtin
    return {TextStyle.REGULAR: "KamishibaiSans", TextStyle.BOLD: "KamishibaiSans-Bold",
            TextStyle.ITALIC: "KamishibaiSans-Italic"}


def _rgb(colour: Colour) -> tuple[float, float, float]:
    return colour[0] / 255, colour[1] / 255, colour[2] / 255


class PdfSheet:
    def __init__(self, path: Path, layout: StoryboardLayout, title: str) -> None:
        from reportlab.pdfgen import canvas

        self.layout = layout
        self.height = layout.page[1]
        self.canvas: Any = canvas.Canvas(str(path), pagesize=layout.page, pageCompression=1)
        self.canvas.setTitle(title)
        self.canvas.setCreator("Kamishibai Studio")
        self.fonts = pdf_fonts()

    def y(self, top: float) -> float:
        """Top-left y (down) to PDF y (up)."""
        return self.height - top

    def width(self, text: str, size: float, style: TextStyle) -> float:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return float(stringWidth(text, self.fonts[style], size))

    def text(self, x: float, top: float, text: str, size: float, style: TextStyle, colour: Colour,
             align: str = "left") -> None:
        c = self.canvas
        c.setFillColorRGB(*_rgb(colour))
        c.setFont(self.fonts[style], size)
        baseline = self.y(top + size * 0.95)
        if align == "right":
            c.drawRightString(x, baseline, text)
        else:
            c.drawString(x, baseline, text)

    def rect(self, box: Rect, stroke: Colour | None, fill: Colour | None) -> None:
        c = self.canvas
        if stroke is not None:
            c.setStrokeColorRGB(*_rgb(stroke))
            c.setLineWidth(0.6)
        if fill is not None:
            c.setFillColorRGB(*_rgb(fill))
        c.rect(box.x, self.y(box.bottom), box.w, box.h, stroke=int(stroke is not None), fill=int(fill is not None))

    def image(self, box: Rect, image: Image.Image) -> None:
        from reportlab.lib.utils import ImageReader

        scale = PICTURE_DPI / 72
        fitted = fit_image(image, max(1, round(box.w * scale)), max(1, round(box.h * scale)))
        draw_w, draw_h = fitted.width / scale, fitted.height / scale
        self.canvas.drawImage(ImageReader(fitted), box.x + (box.w - draw_w) / 2,
                              self.y(box.y + (box.h + draw_h) / 2), width=draw_w, height=draw_h)

    def end_page(self) -> None:
        self.canvas.showPage()

    def save(self) -> None:
        self.canvas.save()
