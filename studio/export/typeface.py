"""Fonts for drawn text: the export's own font first, then fallback fonts for what it lacks.

Titles, captions, the state panel and storyboard sheets are drawn with DejaVu Sans (or
Arial), which has no Japanese, Chinese or Korean and no emoji. A branch written in Japanese
would come out as empty boxes, so text is split into runs, each drawn with the first font of
the chain whose character map holds its characters: the export's font, then the CJK fonts the
machine has (Droid Sans Fallback and Noto Sans CJK on Linux, Hiragino on macOS, Yu Gothic
and Meiryo on Windows...), then a colour emoji font. Text the export's font covers is drawn
exactly as before, in one call.

Japanese, Chinese and Korean share most of their characters, but not the shapes readers
expect of them: a kanji drawn in a Chinese design (Droid Sans Fallback's, say, the first CJK
font of the chain) looks wrong to a Japanese reader. Where the machine has Noto Sans CJK, a
text's Japanese, Chinese or Korean characters are drawn with its face for the text's language
(JP, SC or TC, KR: :data:`LANGUAGE_FONTS`), tried before the chain's other CJK fonts; the
language is the one reading speeds and subtitle lines follow
(:func:`studio.export.reading.caption_language`), Simplified or Traditional Chinese told apart
by its characters (:func:`chinese_script`). Without such a face, the chain is as before.

Colour emoji fonts (Noto Color Emoji, Apple Color Emoji, Segoe UI Emoji) are drawn as
pictures: each run at one of the font's own sizes (bitmap fonts hold only a few), in colour,
scaled to the text's and laid over the image (:class:`ColourFont`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from studio.export.reading import caption_language

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
    "NotoSansCJKtc-Regular.otf", "NotoSansSC-Regular.otf", "NotoSansSC-Regular.ttf",
    "NotoSansTC-Regular.otf", "NotoSansTC-Regular.ttf",
    "wqy-microhei.ttc", "wqy-zenhei.ttc", "ipagp.ttf", "ipag.ttf", "fonts-japanese-gothic.ttf",
    "NanumGothic.ttf", "NanumBarunGothic.ttf", "NotoSansKR-Regular.otf", "NotoSansKR-Regular.ttf", "UnDotum.ttf",
    "ヒラギノ角ゴシック W3.ttc", "Hiragino Sans GB.ttc", "PingFang.ttc", "AppleSDGothicNeo.ttc",
    "Arial Unicode.ttf",
    "YuGothR.ttc", "YuGothM.ttc", "meiryo.ttc", "msgothic.ttc", "msyh.ttc", "malgun.ttf",
    "NotoSansSymbols2-Regular.ttf", "seguisym.ttf",
    "NotoColorEmoji.ttf", "Apple Color Emoji.ttc", "seguiemj.ttf",
)


NOTO_CJK_COLLECTION = "NotoSansCJK-Regular.ttc"
"""Noto Sans CJK as one file (Debian's and Ubuntu's fonts-noto-cjk, Fedora's, Arch's): a
collection of a face for each language, the Japanese one first. Which face is which is read
from their names (:func:`collection_faces`), not assumed."""

LANGUAGE_FONTS: dict[str, tuple[str, ...]] = {
    "ja": ("NotoSansCJKjp-Regular.otf", "NotoSansJP-Regular.otf", "NotoSansJP-Regular.ttf", NOTO_CJK_COLLECTION),
    "zh-Hans": ("NotoSansCJKsc-Regular.otf", "NotoSansSC-Regular.otf", "NotoSansSC-Regular.ttf", NOTO_CJK_COLLECTION),
    "zh-Hant": ("NotoSansCJKtc-Regular.otf", "NotoSansTC-Regular.otf", "NotoSansTC-Regular.ttf", NOTO_CJK_COLLECTION),
    "ko": ("NotoSansCJKkr-Regular.otf", "NotoSansKR-Regular.otf", "NotoSansKR-Regular.ttf", NOTO_CJK_COLLECTION),
}
"""The font files (of :data:`FALLBACK_FONT_NAMES`) drawn in each language's own design, best
first: Japanese, Simplified Chinese, Traditional Chinese, Korean. The collection's face for
the language is the one used (:func:`collection_faces`)."""

_FACE_SUFFIXES = {"JP": "ja", "SC": "zh-Hans", "TC": "zh-Hant", "HK": "zh-Hant", "KR": "ko"}
"""How Noto Sans CJK names its faces' languages (``Noto Sans CJK JP``)."""

CJK_SAMPLES = (ord("\u4e00"), ord("\u3042"), ord("\uac00"))
"""一, あ, 가: a font holding any of them is a Japanese, Chinese or Korean font."""


def chinese_script(text: str) -> str:
    """``zh-Hant`` when ``text`` has more characters only Traditional Chinese writes (those
    Big5 encodes and GB 2312 does not: 這, 國, 學) than ones only Simplified Chinese writes
    (GB 2312's and not Big5's: 这, 国, 学), else ``zh-Hans``. Characters both share (人, 大)
    say nothing. The two encodings are each one script's own character set, and Python knows
    them without a table of ours."""
    simplified = traditional = 0
    for char in set(text):
        if not char.isalpha() or ord(char) < 0x2E80:
            continue
        in_gb = _encodes(char, "gb2312")
        in_big5 = _encodes(char, "big5")
        simplified += in_gb and not in_big5
        traditional += in_big5 and not in_gb
    return "zh-Hant" if traditional > simplified else "zh-Hans"


def _encodes(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def text_language(text: str, context: str = "") -> str | None:
    """The language whose typeface ``text`` wants: ``ja``, ``zh-Hans``, ``zh-Hant`` or ``ko``
    by :func:`studio.export.reading.caption_language` (``context``: the whole text ``text`` is
    a line of, which decides for a line of Han characters alone), else None."""
    language = caption_language(text, context)
    if language == "zh":
        return chinese_script(f"{text}{context}")
    return language


@functools.lru_cache(maxsize=32)
def collection_faces(path: Path) -> dict[str, int]:
    """The faces of the font collection ``path`` by language (Noto Sans CJK's ``JP``, ``SC``,
    ``TC``, ``HK``, ``KR``), as their index in the collection, read from each face's family
    name; a Traditional Chinese face before a Hong Kong one. Empty when the file can't be read
    or names no such faces."""
    from fontTools.ttLib import TTCollection  # the font tables: only when a font is needed

    faces: dict[str, int] = {}
    try:
        with TTCollection(str(path), lazy=True) as collection:
            for index, font in enumerate(collection.fonts):
                name = font["name"]
                family = str(name.getDebugName(16) or name.getDebugName(1) or "")
                language = _FACE_SUFFIXES.get(family.rsplit(" ", 1)[-1])
                if language is not None and (language not in faces or family.endswith(" TC")):
                    faces[language] = index
    except Exception:  # a damaged or foreign file: no faces to prefer
        return {}
    return faces


def language_face(language: str, fonts: Sequence[Path]) -> tuple[Path, int] | None:
    """The font of ``fonts`` (and its face in a collection) drawn in ``language``'s own design
    (:data:`LANGUAGE_FONTS`, best first), or None when ``fonts`` have none."""
    by_name = {path.name: path for path in reversed(fonts)}
    for name in LANGUAGE_FONTS.get(language, ()):
        path = by_name.get(name)
        if path is None:
            continue
        if name.endswith((".ttc", ".otc")):
            face = collection_faces(path).get(language)
            if face is not None:
                return path, face
        else:
            return path, 0
    return None


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
def _read_font(path: Path, face: int = 0) -> tuple[frozenset[int], bool]:
    """(the code points ``path``'s character map holds, whether it draws in colour), of font
    ``face`` of a collection (the first by default); nothing when the file can't be read."""
    from fontTools.ttLib import TTFont  # the font tables: only when a font is needed

    try:
        with TTFont(str(path), fontNumber=face, lazy=True) as font:
            return frozenset(font.getBestCmap() or {}), any(table in font for table in ("CBDT", "sbix", "COLR"))
    except Exception:  # a damaged or foreign file is no fallback; it claims nothing
        return frozenset(), False


def coverage(path: Path, face: int = 0) -> frozenset[int]:
    """The code points ``path``'s character map holds (face ``face`` of a collection; empty
    when the file can't be read)."""
    return _read_font(path, face)[0]


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


def split_runs(text: str, covers: Sequence[frozenset[int]], colour: Sequence[int] = (),
               order: Sequence[int] | None = None) -> list[tuple[int, str]]:
    """``text`` as (font index, run) pairs: each character in the first font that covers it
    (index 0 when none does, which draws the primary font's empty box), the fonts tried in
    ``order`` (indices; by default all, in turn); pictographs first in the ``colour`` fonts
    (indices) that cover them."""
    runs: list[tuple[int, str]] = []
    everything = range(len(covers)) if order is None else order
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


def marks_before_letters(runs: list[tuple[int, str]], covers: Sequence[frozenset[int]]) -> list[tuple[int, str]]:
    """``runs`` with the combining marks that end a run moved to the next run when that one
    starts with a right-to-left letter and its font has them and the run's font does not.

    In a line in visual order (:func:`~studio.export.bidi_text.visual_line`) a Hebrew point
    or an Arabic vowel sign stands before its letter, so it may end the run before, in
    another font: the italic's space before an Arabic word, say (DejaVu Sans Oblique has no
    Arabic), where it would be an empty box."""
    fixed = list(runs)
    for at in range(len(fixed) - 1):
        (index, run), (after, following) = fixed[at], fixed[at + 1]
        if unicodedata.bidirectional(following[0]) not in ("R", "AL"):
            continue
        cut = len(run)
        while (cut > 0 and unicodedata.bidirectional(run[cut - 1]) == "NSM"
               and ord(run[cut - 1]) not in covers[index] and ord(run[cut - 1]) in covers[after]):
            cut -= 1
        if 0 < cut < len(run):
            fixed[at], fixed[at + 1] = (index, run[:cut]), (after, run[cut:] + following)
    return fixed


def _right_to_left(text: str) -> bool:
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in text)


def missing_characters(texts: Sequence[str], covers: Sequence[frozenset[int]]) -> list[str]:
    """The distinct characters of ``texts`` no font of ``covers`` holds, in the order met;
    spaces, controls and combining marks aside."""
    missing: dict[str, None] = {}
    for text in texts:
        for char in text:
            if not _joins_previous(char) and not any(ord(char) in cover for cover in covers):
                missing[char] = None
    return list(missing)


@dataclass(frozen=True)
class PlacedRun:
    """One run of a line as it is drawn: ``text`` in ``font`` (``index`` in the typeface's
    chain: 0 is the primary font), ``x`` pixels from the line's left edge, ``width`` wide."""

    index: int
    font: FontLike
    text: str
    x: float
    width: float


class Typeface:
    """A font at one size with its fallbacks: measures and draws text run by run.

    The primary font sets the line height and the baseline; fallback fonts load on first
    use. A primary font whose character map can't be read (Pillow's built-in font) is
    taken to cover everything, so it is used alone.

    A line that needs the bidirectional algorithm (Arabic, Hebrew) and more than one font
    can't be drawn run by run in logical order: Pillow (libraqm) orders the characters of one
    call only, so "مرحبا 東京 سلام" came out with مرحبا on the left. Such a line is put in
    visual order first, as a whole (:func:`~studio.export.bidi_text.visual_line`: Arabic
    joined, right-to-left runs reversed, the direction from the first strong letter or the
    paragraph's mark that begins it, as PDF sheets do), then split into runs that are drawn
    left to right, those holding right-to-left letters in Pillow's basic layout, which draws
    characters as given (:meth:`layout`). A line in one font is drawn by Pillow in one call,
    as before (libraqm takes the line's direction from that mark too)."""

    def __init__(self, primary: PlainFont, primary_path: Path | None, size: int,
                 fallbacks: Sequence[Path] = (), *, embolden: bool = False) -> None:
        self.primary = primary
        self.size = size
        #: Fallback fonts rarely come in bold: their runs in a bold typeface get a thin outline
        #: in the text's own colour, so a Japanese title does not look lighter than its Latin.
        self.embolden = embolden
        primary_cover = coverage(primary_path) if primary_path is not None else frozenset()
        self.fallbacks = tuple(fallbacks) if primary_cover else ()
        self.colour = tuple(i + 1 for i, path in enumerate(self.fallbacks) if is_colour_font(path))
        #: the chain's fallbacks (index 1 on), then the faces of a collection that only a
        #: language prefers (Noto Sans CJK's SC face, say): (file, face in the file)
        self._faces = [(path, 0) for path in self.fallbacks]
        covers = [primary_cover, *(coverage(path) for path in self.fallbacks)]
        chain = len(covers)
        #: the order fonts are tried in for a text of each language (:func:`text_language`)
        self._orders: dict[str, tuple[int, ...]] = {}
        for language in LANGUAGE_FONTS:
            found = language_face(language, self.fallbacks)
            if found is None:
                continue
            if found not in self._faces:
                self._faces.append(found)
                covers.append(coverage(*found))
            self._orders[language] = _preferring(self._faces.index(found) + 1, covers[:chain])
        self.covers = tuple(covers)
        self._default = tuple(range(chain)) if len(covers) > chain else None
        self._fonts: dict[int, FontLike] = {0: primary}
        self._as_given: dict[int, FontLike] = {}

    def font(self, index: int) -> FontLike:
        if index not in self._fonts:
            path, face = self._faces[index - 1]
            loaded: FontLike | None
            if index in self.colour:
                loaded = ColourFont.load(path, self.size)
            else:
                try:
                    loaded = ImageFont.truetype(str(path), self.size, index=face)
                except OSError:
                    loaded = None
            # unreadable after all: its characters get the primary's boxes
            self._fonts[index] = loaded if loaded is not None else self.primary
        return self._fonts[index]

    def _order(self, text: str, context: str = "") -> tuple[int, ...] | None:
        """The order the chain's fonts are tried in for ``text`` (``context``: the whole text
        it is a line of): its language's own face first among the CJK fonts where the chain
        has one (:func:`text_language`), else the chain as it is."""
        if not self._orders:
            return None
        language = text_language(text, context)
        return self._orders.get(language, self._default) if language is not None else self._default

    def _split(self, text: str, context: str = "") -> list[tuple[int, str]]:
        """``text`` as (font index, run) pairs: one run in the primary font when it covers all."""
        pictures = bool(self.colour) and (EMOJI_STYLE in text or any(ord(char) >= PICTOGRAPHS for char in text))
        if not self.fallbacks or (not pictures and all(ord(char) in self.covers[0] or _joins_previous(char)
                                                       for char in text)):
            return [(0, text)]
        return split_runs(text, self.covers, self.colour, self._order(text, context))

    def runs(self, text: str, context: str = "") -> list[tuple[FontLike, str]]:
        """``text`` (logical order) as (font, run) pairs, in logical order; ``context``: the
        whole text ``text`` is a line of (its language picks the faces of Japanese, Chinese or
        Korean characters, see :func:`text_language`)."""
        return [(self.font(index), run) for index, run in self._split(text, context)]

    def _font_as_given(self, index: int) -> FontLike:
        """The chain's font ``index`` drawing characters in the order given, without
        reordering or shaping them (Pillow's basic layout), for a line already in visual order."""
        if index not in self._as_given:
            font = self.font(index)
            if isinstance(font, ImageFont.FreeTypeFont) and font.layout_engine != ImageFont.Layout.BASIC:
                # not font_variant(): it takes Layout.BASIC (0) for "keep the engine"
                with contextlib.suppress(OSError, TypeError):
                    font = ImageFont.FreeTypeFont(font.path, font.size, font.index, font.encoding,
                                                  layout_engine=ImageFont.Layout.BASIC)
            self._as_given[index] = font
        return self._as_given[index]

    def _visual_runs(self, text: str, context: str = "") -> list[tuple[int, FontLike, str]]:
        """(font index, font, run) in the order drawn, left to right."""
        split = self._split(text, context)
        if len(split) > 1:
            from studio.export.bidi_text import needs_bidi, visual_line  # python-bidi: only for such text

            if needs_bidi(text):
                line = visual_line(text, self.covers)
                runs = split_runs(line, self.covers, self.colour, self._order(text, context))
                return [(index, self._font_as_given(index) if _right_to_left(run) else self.font(index), run)
                        for index, run in marks_before_letters(runs, self.covers)]
        return [(index, self.font(index), run) for index, run in split]

    def layout(self, text: str, context: str = "") -> list[PlacedRun]:
        """One line (logical order) as it is drawn: its runs left to right, each with its font
        and its offset from the line's left edge (``context``: as for :meth:`runs`)."""
        placed: list[PlacedRun] = []
        x = 0.0
        for index, font, run in self._visual_runs(text, context):
            width = float(font.getlength(run))
            placed.append(PlacedRun(index, font, run, x, width))
            x += width
        return placed

    def width(self, text: str, context: str = "") -> float:
        return float(sum(run.width for run in self.layout(text, context)))

    def line_height(self) -> int:
        """Ascent + descent: room for descenders (g, y, p) on every line."""
        if isinstance(self.primary, ImageFont.FreeTypeFont):
            ascent, descent = self.primary.getmetrics()
            return int(ascent + descent)
        box = self.primary.getbbox("Ag")
        return int(box[3] - box[1]) + 2

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str,
             fill: tuple[int, ...] | str, anchor: str = "la", context: str = "") -> None:
        """Draw ``text`` as Pillow's ``draw.text`` would, for the anchors ``l``/``m``/``r``
        across and ``a`` (top) or ``m`` (middle) down, with each run in its own font on
        the primary font's baseline (``context``: as for :meth:`runs`)."""
        placed = self.layout(text, context)
        if (len(placed) == 1 and placed[0].font is self.primary) or not isinstance(self.primary,
                                                                                   ImageFont.FreeTypeFont):
            draw.text(xy, text, font=self.primary, fill=fill, anchor=anchor)
            return
        x, y = xy
        width = sum(run.width for run in placed)
        x -= {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
        ascent, descent = self.primary.getmetrics()
        baseline = y + (ascent if anchor[1] == "a" else (ascent - descent) / 2)
        stroke = round(self.size / 40) if self.embolden else 0  # none below 20 px: it would blot small kanji
        for run in placed:
            if isinstance(run.font, ColourFont):
                _paste(draw, run.font.render(run.text), (x + run.x, baseline - run.font.ascent()))
            else:
                outline = stroke if self.font(run.index) is not self.primary else 0
                draw.text((x + run.x, baseline), run.text, font=run.font, fill=fill, anchor="ls",
                          stroke_width=outline, stroke_fill=fill)


def _preferring(index: int, covers: Sequence[frozenset[int]]) -> tuple[int, ...]:
    """The chain's font indices (those of ``covers``) with ``index`` tried just before the
    first of them that is a Japanese, Chinese or Korean font (:data:`CJK_SAMPLES`): after the
    export's own fonts, ahead of Droid Sans Fallback and the rest."""
    rest = [at for at in range(len(covers)) if at != index]
    first_cjk = next((position for position, at in enumerate(rest)
                      if at and any(sample in covers[at] for sample in CJK_SAMPLES)), len(rest))
    return (*rest[:first_cjk], index, *rest[first_cjk:])


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
