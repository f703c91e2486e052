"""The storyboard sheet as a PDF (reportlab): a :class:`~studio.export.storyboard.SheetCanvas`."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from studio import __version__
from studio.core.sentence import plural
from studio.core.text import one_line
from studio.export.bidi_text import visual_line
from studio.export.branch import Branch
from studio.export.drawing import fit_image, font_file, italic_font_file
from studio.export.storyboard import Colour, Rect, StoryboardLayout, TextStyle, branch_title
from studio.export.typeface import (
    EMOJI_STYLE,
    PICTOGRAPHS,
    ColourFont,
    coverage,
    fallback_font_files,
    is_colour_font,
    marks_before_letters,
    split_runs,
)

PICTURE_DPI = 150
APPLICATION = "Kamishibai Studio"


@dataclass(frozen=True)
class PdfMetadata:
    """The PDF's document information (what a viewer's Properties shows): set in full, as
    reportlab otherwise writes "anonymous" as author and "unspecified" as subject."""

    title: str
    subject: str = f"Storyboard made with {APPLICATION} {__version__}"
    keywords: str = f"storyboard, {APPLICATION}"
    author: str = APPLICATION
    """No person is recorded in a project, and the login name is not put in a file meant to
    be shared: the author is the application that made the sheet."""
    creator: str = f"{APPLICATION} {__version__}"


def sheet_metadata(branch: Branch, title: str) -> PdfMetadata:
    """The sheet's metadata: its title as the sheet's heading names it (``title``), the branch it
    shows as the subject (see :func:`~studio.export.storyboard.branch_title`)."""
    shown = f"{branch_title(branch)} · {plural(len(branch.turns), 'turn')}"
    return PdfMetadata(
        title=one_line(title),
        subject=one_line(f"Storyboard of {branch.project_name}: {shown}, made with {APPLICATION} {__version__}"),
        keywords=one_line(f"storyboard, {APPLICATION}, {branch.project_name}"),
    )


@dataclass(frozen=True)
class PdfFonts:
    """The sheet's registered font names per style, and the fallback fonts (CJK) that
    reportlab could embed, with the code points each covers. Colour emoji fonts can't be
    embedded: their runs are drawn as pictures (``pictures``: fallback name -> font file).

    ``own`` holds the character map of each style's font that is a file of its own (DejaVu
    Sans Oblique, Bold): a styled font often lacks scripts the regular one has (the Oblique
    has no Arabic), so that style falls back to the regular font before the fallback fonts,
    as :func:`studio.export.drawing.load_typeface` does."""

    styles: dict[TextStyle, str]
    files: tuple[Path, ...] = ()
    covers: tuple[frozenset[int], ...] = ()
    fallbacks: tuple[str, ...] = ()
    pictures: dict[str, Path] = field(default_factory=dict)
    own: dict[TextStyle, frozenset[int]] = field(default_factory=dict)

    @functools.cached_property
    def colour(self) -> tuple[int, ...]:
        """The indices (in ``covers``) of the fonts drawn as pictures."""
        return tuple(index + 1 for index, name in enumerate(self.fallbacks) if name in self.pictures)

    def chain(self, style: TextStyle) -> tuple[tuple[str, ...], tuple[frozenset[int], ...], tuple[int, ...]]:
        """The font names ``style``'s text is drawn with, in the order tried, their character
        maps and the indices of those drawn as pictures: the style's font, the regular font
        when the style has a font of its own, then the fallback fonts. A style font whose
        map can't be read is taken to cover what the regular font does."""
        own = self.own.get(style)
        if not own or not self.covers:
            return (self.styles[style], *self.fallbacks), self.covers, self.colour
        return ((self.styles[style], self.styles[TextStyle.REGULAR], *self.fallbacks), (own, *self.covers),
                tuple(index + 1 for index in self.colour))

    def runs(self, text: str, style: TextStyle) -> list[tuple[str, str]]:
        """``text`` as (font name, run) pairs; one run in the style's font when it covers all
        and nothing in it is drawn as a picture (checked first: splitting a line character by
        character took a PDF sheet's text longer than measuring it, on a machine with a colour
        emoji font, for lines that were all in one font)."""
        names, covers, colour = self.chain(style)
        pictures = bool(colour) and (EMOJI_STYLE in text or any(ord(char) >= PICTOGRAPHS for char in text))
        if len(names) == 1 or (not pictures and all(ord(char) in covers[0] for char in text)):
            return [(names[0], text)]
        return [(names[index], run) for index, run in marks_before_letters(split_runs(text, covers, colour), covers)]


def _register(name: str, path: Path) -> bool:
    """Register ``path`` (the first font of a collection) with reportlab: False for fonts it
    can't embed (PostScript outlines, as Noto Sans CJK's, or damaged files)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    try:
        pdfmetrics.registerFont(TTFont(name, str(path), subfontIndex=0))
    except Exception:
        return False
    return True


@functools.lru_cache(maxsize=1)
def pdf_fonts() -> PdfFonts:
    """DejaVu when found (it covers far more than Latin-1), else Helvetica; then the
    machine's fallback fonts that reportlab can embed."""
    builtin = {TextStyle.REGULAR: "Helvetica", TextStyle.BOLD: "Helvetica-Bold", TextStyle.ITALIC: "Helvetica-Oblique"}
    regular, bold = font_file(False), font_file(True)
    if regular is None:
        return PdfFonts(builtin)
    styles = {TextStyle.REGULAR: "KamishibaiSans", TextStyle.BOLD: "KamishibaiSans-Bold",
              TextStyle.ITALIC: "KamishibaiSans-Italic"}
    faces = {TextStyle.REGULAR: regular, TextStyle.BOLD: bold or regular,
             TextStyle.ITALIC: italic_font_file() or regular}
    if not all(_register(styles[style], path) for style, path in faces.items()):
        return PdfFonts(builtin)  # any trouble with the export's own font: the built-in fonts
    own = {style: coverage(path) for style, path in faces.items() if path != regular}
    used, names, pictures = [regular], list[str](), dict[str, Path]()
    for path in fallback_font_files():
        name = f"KamishibaiFallback-{len(names) + 1}"
        if is_colour_font(path):  # drawn as pictures: a PDF font can't carry the colours
            pictures[name] = path
        elif not _register(name, path):
            continue
        used.append(path)
        names.append(name)
    return PdfFonts(styles, tuple(used), tuple(coverage(path) for path in used), tuple(names), pictures, own)


@functools.lru_cache(maxsize=16)
def _picture_font(path: Path, size: float) -> ColourFont | None:
    """A colour font at ``size`` points, measured and rendered at the sheet's picture resolution."""
    return ColourFont.load(path, size * PICTURE_DPI / 72)


@contextlib.contextmanager
def binary_streams() -> Iterator[None]:
    """reportlab's streams (pictures, pages) written compressed, not also ASCII85-encoded,
    while the sheet's canvas makes them; reportlab's setting is put back after.

    reportlab encodes every stream in ASCII85 by default, and without its optional C extension
    (rl_accel) it does so in pure Python: that took more of a sheet's time than its text,
    layout and pictures together, for a file a quarter larger. Every PDF reader takes binary
    streams. The setting is reportlab's, for the whole process: it is changed only around the
    calls that read it (drawing a picture, ending a page, saving)."""
    from reportlab import rl_config

    before = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = before


def _rgb(colour: Colour) -> tuple[float, float, float]:
    return colour[0] / 255, colour[1] / 255, colour[2] / 255


class PdfSheet:
    def __init__(self, path: Path, layout: StoryboardLayout, metadata: PdfMetadata) -> None:
        from reportlab.pdfgen import canvas

        self.layout = layout
        self.height = layout.page[1]
        self.canvas: Any = canvas.Canvas(str(path), pagesize=layout.page, pageCompression=1)
        self.canvas.setTitle(metadata.title)
        self.canvas.setAuthor(metadata.author)
        self.canvas.setSubject(metadata.subject)
        self.canvas.setKeywords(metadata.keywords)
        self.canvas.setCreator(metadata.creator)
        self.fonts = pdf_fonts()

    def y(self, top: float) -> float:
        """Top-left y (down) to PDF y (up)."""
        return self.height - top

    def run_width(self, font: str, run: str, size: float) -> float:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        if font in self.fonts.pictures:
            picture = _picture_font(self.fonts.pictures[font], size)
            return picture.getlength(run) * 72 / PICTURE_DPI if picture is not None else 0.0
        return float(stringWidth(run, font, size))

    def line(self, text: str) -> str:
        """``text`` (one line, logical order) as it is drawn: Arabic joined, right to left
        reversed (:func:`~studio.export.bidi_text.visual_line`); the canvas draws glyphs in
        the order given and does neither."""
        return visual_line(text, self.fonts.covers)

    def width(self, text: str, size: float, style: TextStyle) -> float:
        return self._width(self.line(text), size, style)

    def _width(self, line: str, size: float, style: TextStyle) -> float:
        return float(sum(self.run_width(font, run, size) for font, run in self.fonts.runs(line, style)))

    def text(self, x: float, top: float, text: str, size: float, style: TextStyle, colour: Colour,
             align: str = "left") -> None:
        c = self.canvas
        c.setFillColorRGB(*_rgb(colour))
        baseline = self.y(top + size * 0.95)
        line = self.line(text)
        if align == "right":
            x -= self._width(line, size, style)
        for font, run in self.fonts.runs(line, style):
            if font in self.fonts.pictures:
                self.picture(x, baseline, run, font, size)
            elif style is TextStyle.BOLD and font != self.fonts.styles[style]:
                # Not the bold font (the regular or a fallback font): fill and stroke the outlines,
                # as the PNG and video do.
                words = c.beginText(x, baseline)
                words.setFont(font, size)
                words.setTextRenderMode(2)
                c.setStrokeColorRGB(*_rgb(colour))
                c.setLineWidth(size / 20)
                words.textOut(run)
                words.setTextRenderMode(0)  # the mode outlives the text object: back to plain fill
                c.drawText(words)
            else:
                c.setFont(font, size)
                c.drawString(x, baseline, run)
            x += self.run_width(font, run, size)

    def picture(self, x: float, baseline: float, run: str, font: str, size: float) -> None:
        """A colour font's run as a picture standing on ``baseline``."""
        from reportlab.lib.utils import ImageReader

        face = _picture_font(self.fonts.pictures[font], size)
        if face is None:
            return
        picture = face.render(run)
        points = 72 / PICTURE_DPI
        width, height = picture.width * points, picture.height * points
        with binary_streams():
            self.canvas.drawImage(ImageReader(picture), x, baseline + face.ascent() * points - height, width=width,
                                  height=height, mask="auto")

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
        with binary_streams():
            self.canvas.drawImage(ImageReader(fitted), box.x + (box.w - draw_w) / 2,
                                  self.y(box.y + (box.h + draw_h) / 2), width=draw_w, height=draw_h)

    def end_page(self) -> None:
        with binary_streams():
            self.canvas.showPage()

    def save(self) -> None:
        with binary_streams():  # the pages' streams are encoded as the file is written
            self.canvas.save()
