"""Fonts for drawn text: the export's own font first, then fallback fonts for what it lacks.

Titles, captions, the state panel and storyboard sheets are drawn with DejaVu Sans (or
Arial), which has no Japanese, Chinese or Korean and no emoji. A branch written in Japanese
would come out as empty boxes, so text is split into runs, each drawn with the first font of
the chain whose character map holds its characters: the export's font, then the CJK fonts the
machine has (Droid Sans Fallback and Noto Sans CJK on Linux, Hiragino on macOS, Yu Gothic
and Meiryo on Windows...), then a colour emoji font. Text the export's font covers is drawn
exactly as before, in one call.

Colour emoji fonts (Noto Color Emoji, Apple Color Emoji, Segoe UI Emoji) are drawn as
pictures: each run at one of the font's own sizes (bitmap fonts hold only a few), in colour,
scaled to the text's and laid over the image (:class:`ColourFont`).
"""

from __future__ import annotations

import functools
import os
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

#: The pixel sizes colour emoji fonts hold bitmaps at (Noto Color Emoji: 109; Apple Color
#: Emoji: 160, 96, 64, 48, 40, 32, 20), tried largest first.
BITMAP_STRIKES = (160, 136, 109, 96, 64, 48, 40, 32, 20)


class ColourFont:
    """A colour font at one of its own sizes, scaled to ``size`` pixels: measures as a font of
    that size does, and renders runs in colour as pictures (for :meth:`Typeface.draw` to lay
    over the image, and for PDF sheets)."""

    def __init__(self, font: ImageFont.FreeTypeFont, strike: int, size: float) -> None:
        self.font = font
        self.scale = size / strike

    @classmethod
    def load(cls, path: Path, size: float) -> ColourFont | None:
        for strike in BITMAP_STRIKES:
            try:
                return cls(ImageFont.truetype(str(path), strike), strike, size)
            except OSError:  # not one of its sizes (or not a font at all)
                continue
        return None

    def getlength(self, text: str) -> float:
        return float(self.font.getlength(text)) * self.scale

    def ascent(self) -> float:
        return float(self.font.getmetrics()[0]) * self.scale

    def render(self, text: str) -> Image.Image:
        """``text`` in colour on a transparent RGBA image, ``ascent()`` above the baseline."""
        ascent, descent = self.font.getmetrics()
        width = max(1, round(self.font.getlength(text)))
        image = Image.new("RGBA", (width, ascent + descent), (0, 0, 0, 0))
        ImageDraw.Draw(image).text((0, ascent), text, font=self.font, anchor="ls", embedded_color=True)
        size = (max(1, round(width * self.scale)), max(1, round((ascent + descent) * self.scale)))
        return image.resize(size, Image.Resampling.LANCZOS)


PlainFont = ImageFont.FreeTypeFont | ImageFont.ImageFont
FontLike = PlainFont | ColourFont

#: Fallback font files, best first: broad CJK fonts, then per-language ones, then symbols. Each
#: character takes the first that has it (Droid Sans Fallback, say, has no Hangul: Korean then
#: comes from Nanum or Noto when installed).
FALLBACK_FONT_NAMES = (
    "DroidSansFallbackFull.ttf", "DroidSansFallback.ttf",
    "NotoSansCJK-Regular.ttc", "NotoSansCJKjp-Regular.otf", "NotoSansJP-Regular.otf", "NotoSansJP-Regular.ttf",
    "NotoSansCJKsc-Regular.otf", "NotoSansCJKkr-Regular.otf",
    "wqy-microhei.ttc", "wqy-zenhei.ttc", "ipagp.ttf", "ipag.ttf", "fonts-japanese-gothic.ttf",
    "NanumGothic.ttf", "NanumBarunGothic.ttf", "NotoSansKR-Regular.otf", "NotoSansKR-Regular.ttf", "UnDotum.ttf",
    "ヒラギノ角ゴシック W3.ttc", "Hiragino Sans GB.ttc", "PingFang.ttc", "AppleSDGothicNeo.ttc",
    "Arial Unicode.ttf",
    "YuGothR.ttc", "YuGothM.ttc", "meiryo.ttc", "msgothic.ttc", "msyh.ttc", "malgun.ttf",
    "NotoSansSymbols2-Regular.ttf", "seguisym.ttf",
    "NotoColorEmoji.ttf", "Apple Color Emoji.ttc", "seguiemj.ttf",
)


def font_dirs() -> tuple[Path, ...]:
    """Where fonts are looked for: the system's folders and the user's own."""
    home = Path.home()
    windows = Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts"
    return (
        Path("/usr/share/fonts"), Path("/usr/local/share/fonts"),
        home / ".local/share/fonts", home / ".fonts",
        Path("/System/Library/Fonts"), Path("/System/Library/Fonts/Supplemental"), Path("/Library/Fonts"),
        home / "Library/Fonts",
        windows, home / "AppData/Local/Microsoft/Windows/Fonts",
    )


@functools.lru_cache(maxsize=1)
def fallback_font_files() -> tuple[Path, ...]:
    """The fallback fonts this machine has, in :data:`FALLBACK_FONT_NAMES`' order.

    The Linux folders are searched with their subfolders (fonts live in per-package
    folders there); one walk, cached for the process."""
    found: dict[str, Path] = {}
    wanted = set(FALLBACK_FONT_NAMES)
    for folder in font_dirs():
        if not folder.is_dir():
            continue
        for root, _dirs, files in os.walk(folder):
            for name in wanted.intersection(files):
                found.setdefault(name, Path(root) / name)
    return tuple(found[name] for name in FALLBACK_FONT_NAMES if name in found)


@functools.lru_cache(maxsize=32)
def _read_font(path: Path) -> tuple[frozenset[int], bool]:
    """(the code points ``path``'s character map holds, whether it draws in colour), of the
    first font of a collection; nothing when the file can't be read."""
    from fontTools.ttLib import TTFont  # the font tables: only when a font is needed

    try:
        with TTFont(str(path), fontNumber=0, lazy=True) as font:
            return frozenset(font.getBestCmap() or {}), any(table in font for table in ("CBDT", "sbix", "COLR"))
    except Exception:  # a damaged or foreign file is no fallback; it claims nothing
        return frozenset(), False


def coverage(path: Path) -> frozenset[int]:
    """The code points ``path``'s character map holds (empty when the file can't be read)."""
    return _read_font(path)[0]


def is_colour_font(path: Path) -> bool:
    """Whether ``path`` draws its glyphs in colour (bitmap or layered emoji tables)."""
    return _read_font(path)[1]


EMOJI_STYLE = "\ufe0f"
"""The variation selector that asks for the character before it as an emoji picture."""

PICTOGRAPHS = 0x1F000
"""From here up (emoticons, pictographs, transport, flags...) a colour emoji font is preferred
to a text font's black-and-white emoticons (DejaVu Sans has some)."""


def _joins_previous(char: str) -> bool:
    """Spaces, controls and combining marks stay in the run before them (a space between
    two Japanese words does not switch fonts twice)."""
    return char.isspace() or unicodedata.category(char)[0] in ("C", "M")


def split_runs(text: str, covers: Sequence[frozenset[int]], colour: Sequence[int] = ()) -> list[tuple[int, str]]:
    """``text`` as (font index, run) pairs: each character in the first font that covers it
    (index 0 when none does, which draws the primary font's empty box); pictographs first in
    the ``colour`` fonts (indices) that cover them."""
    runs: list[tuple[int, str]] = []
    everything = range(len(covers))
    for at, char in enumerate(text):
        # a space after a colour run is the text font's (a colour font's spaces are as wide as its pictures)
        if runs and _joins_previous(char) and not (char.isspace() and runs[-1][0] in colour):
            index = runs[-1][0]
        else:
            code = ord(char)
            pictured = code >= PICTOGRAPHS or text[at + 1:at + 2] == EMOJI_STYLE  # ☀️: the sun as a picture
            order = (*colour, *everything) if pictured else everything
            index = next((i for i in order if code in covers[i]), 0)
        if runs and runs[-1][0] == index:
            runs[-1] = (index, runs[-1][1] + char)
        else:
            runs.append((index, char))
    return runs


def missing_characters(texts: Sequence[str], covers: Sequence[frozenset[int]]) -> list[str]:
    """The distinct characters of ``texts`` no font of ``covers`` holds, in the order met;
    spaces, controls and combining marks aside."""
    missing: dict[str, None] = {}
    for text in texts:
        for char in text:
            if not _joins_previous(char) and not any(ord(char) in cover for cover in covers):
                missing[char] = None
    return list(missing)


class Typeface:
    """A font at one size with its fallbacks: measures and draws text run by run.

    The primary font sets the line height and the baseline; fallback fonts load on first
    use. A primary font whose character map can't be read (Pillow's built-in font) is
    taken to cover everything, so it is used alone."""

    def __init__(self, primary: PlainFont, primary_path: Path | None, size: int,
                 fallbacks: Sequence[Path] = (), *, embolden: bool = False) -> None:
        self.primary = primary
        self.size = size
        #: Fallback fonts rarely come in bold: their runs in a bold typeface get a thin outline
        #: in the text's own colour, so a Japanese title does not look lighter than its Latin.
        self.embolden = embolden
        primary_cover = coverage(primary_path) if primary_path is not None else frozenset()
        self.fallbacks = tuple(fallbacks) if primary_cover else ()
        self.covers = (primary_cover, *(coverage(path) for path in self.fallbacks))
        self.colour = tuple(i + 1 for i, path in enumerate(self.fallbacks) if is_colour_font(path))
        self._fonts: dict[int, FontLike] = {0: primary}

    def font(self, index: int) -> FontLike:
        if index not in self._fonts:
            path = self.fallbacks[index - 1]
            loaded: FontLike | None
            if index in self.colour:
                loaded = ColourFont.load(path, self.size)
            else:
                try:
                    loaded = ImageFont.truetype(str(path), self.size)
                except OSError:
                    loaded = None
            # unreadable after all: its characters get the primary's boxes
            self._fonts[index] = loaded if loaded is not None else self.primary
        return self._fonts[index]

    def runs(self, text: str) -> list[tuple[FontLike, str]]:
        pictures = bool(self.colour) and (EMOJI_STYLE in text or any(ord(char) >= PICTOGRAPHS for char in text))
        if not self.fallbacks or (not pictures and all(ord(char) in self.covers[0] or _joins_previous(char)
                                                       for char in text)):
            return [(self.primary, text)]
        return [(self.font(index), run) for index, run in split_runs(text, self.covers, self.colour)]

    def width(self, text: str) -> float:
        return float(sum(font.getlength(run) for font, run in self.runs(text)))

    def line_height(self) -> int:
        """Ascent + descent: room for descenders (g, y, p) on every line."""
        if isinstance(self.primary, ImageFont.FreeTypeFont):
            ascent, descent = self.primary.getmetrics()
            return int(ascent + descent)
        box = self.primary.getbbox("Ag")
        return int(box[3] - box[1]) + 2

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str,
             fill: tuple[int, ...] | str, anchor: str = "la") -> None:
        """Draw ``text`` as Pillow's ``draw.text`` would, for the anchors ``l``/``m``/``r``
        across and ``a`` (top) or ``m`` (middle) down, with each run in its own font on
        the primary font's baseline."""
        runs = self.runs(text)
        if (len(runs) == 1 and runs[0][0] is self.primary) or not isinstance(self.primary, ImageFont.FreeTypeFont):
            draw.text(xy, text, font=self.primary, fill=fill, anchor=anchor)
            return
        x, y = xy
        width = sum(font.getlength(run) for font, run in runs)
        x -= {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
        ascent, descent = self.primary.getmetrics()
        baseline = y + (ascent if anchor[1] == "a" else (ascent - descent) / 2)
        stroke = round(self.size / 40) if self.embolden else 0  # none below 20 px: it would blot small kanji
        for font, run in runs:
            if isinstance(font, ColourFont):
                _paste(draw, font.render(run), (x, baseline - font.ascent()))
            else:
                outline = stroke if font is not self.primary else 0
                draw.text((x, baseline), run, font=font, fill=fill, anchor="ls", stroke_width=outline,
                          stroke_fill=fill)
            x += font.getlength(run)


def _paste(draw: ImageDraw.ImageDraw, picture: Image.Image, xy: tuple[float, float]) -> None:
    """Lay the RGBA ``picture`` over ``draw``'s image at ``xy`` (alpha over, clipped to the
    image). Pillow's drawing object keeps its image as ``_image``; without it nothing is drawn."""
    target = getattr(draw, "_image", None)
    if not isinstance(target, Image.Image):
        return
    left, top = round(xy[0]), round(xy[1])
    box = (max(0, -left), max(0, -top),
           min(picture.width, target.width - left), min(picture.height, target.height - top))
    if box[0] >= box[2] or box[1] >= box[3]:
        return
    piece = picture.crop(box)
    where = (left + box[0], top + box[1])
    if target.mode == "RGBA":
        target.alpha_composite(piece, where)
    else:
        target.paste(piece.convert(target.mode), where, piece.getchannel("A"))
