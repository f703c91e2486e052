"""Storyboard sheet pages as PNG images (Pillow): a :class:`~studio.export.storyboard.SheetCanvas`."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, PngImagePlugin

from studio.export.drawing import fit_image, load_typeface
from studio.export.sheet_pdf import PdfMetadata
from studio.export.storyboard import Colour, Rect, StoryboardLayout, TextStyle
from studio.export.typeface import Typeface

DPI = 150


def png_page_paths(out: Path, pages: int) -> list[Path]:
    """``out`` for a single page; ``name-01.png``, ``name-02.png``... for more."""
    if pages == 1:
        return [out]
    digits = max(2, len(str(pages)))
    return [out.with_name(f"{out.stem}-{page:0{digits}d}{out.suffix or '.png'}") for page in range(1, pages + 1)]


def page_info(metadata: PdfMetadata, page: int, pages: int) -> PngImagePlugin.PngInfo:
    """A page's text chunks: the title, description, author and software a PDF sheet's
    document information holds (iTXt, UTF-8: tEXt holds Latin-1 only, and a Japanese title
    would not fit). A page of several says which it is."""
    info = PngImagePlugin.PngInfo()
    title = metadata.title if pages == 1 else f"{metadata.title} (page {page} of {pages})"
    for key, value in (("Title", title), ("Description", metadata.subject), ("Author", metadata.author),
                       ("Software", metadata.creator)):
        info.add_itxt(key, value)
    return info


def save_page(page: Image.Image, target: Path, info: PngImagePlugin.PngInfo, dpi: int = DPI) -> None:
    """Write ``page`` with its resolution recorded: without it, viewers and printers took the
    page for 72 dpi and printed an A4 sheet at twice its size."""
    page.save(target, format="PNG", pnginfo=info, dpi=(dpi, dpi))


class PngPage:
    def __init__(self, layout: StoryboardLayout, dpi: int = DPI) -> None:
        self.scale = dpi / 72.0
        width, height = layout.page
        self.page = Image.new("RGB", (round(width * self.scale), round(height * self.scale)), "white")
        self.draw = ImageDraw.Draw(self.page)

    def px(self, value: float) -> int:
        return round(value * self.scale)

    def face(self, size: float, style: TextStyle) -> Typeface:
        return load_typeface(self.px(size), bold=style is TextStyle.BOLD, italic=style is TextStyle.ITALIC)

    def width(self, text: str, size: float, style: TextStyle) -> float:
        return self.face(size, style).width(text) / self.scale

    def text(self, x: float, top: float, text: str, size: float, style: TextStyle, colour: Colour,
             align: str = "left") -> None:
        self.face(size, style).draw(self.draw, (self.px(x), self.px(top)), text, colour,
                                    anchor="ra" if align == "right" else "la")

    def rect(self, box: Rect, stroke: Colour | None, fill: Colour | None) -> None:
        self.draw.rectangle((self.px(box.x), self.px(box.y), self.px(box.right), self.px(box.bottom)),
                            outline=stroke, fill=fill, width=max(1, round(self.scale * 0.6)) if stroke else 0)

    def image(self, box: Rect, image: Image.Image) -> None:
        fitted = fit_image(image, self.px(box.w), self.px(box.h))
        self.page.paste(fitted, (self.px(box.x) + (self.px(box.w) - fitted.width) // 2,
                                 self.px(box.y) + (self.px(box.h) - fitted.height) // 2))
