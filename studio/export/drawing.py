"""Text, cards and state bars drawn with Pillow (no ImageMagick, no Qt).

Everything drawn over video is prepared once per turn as an RGBA patch
(:class:`Patch`) and blended into each frame with numpy, so burning in captions and the
state overlay costs a few array operations per frame.
"""

from __future__ import annotations

import functools
import itertools
import math
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from studio.core.graphemes import cluster_starts, grapheme_clusters, is_wide
from studio.core.state import STAT_NAMES, STATE_MAX, CharacterState, StateChange
from studio.export.bidi_text import LRM, RLM, directed_lines, starts_right_to_left
from studio.export.spaces import IDEOGRAPHIC_SPACE, single_spaced
from studio.export.typeface import PlainFont, Typeface, fallback_font_files

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/local/share/fonts"),
    Path("/Library/Fonts"),
    Path("C:/Windows/Fonts"),
)
FONT_FILES = {False: ("DejaVuSans.ttf", "Arial.ttf", "arial.ttf"),
              True: ("DejaVuSans-Bold.ttf", "Arial Bold.ttf", "arialbd.ttf")}

STAT_LABELS = {"stamina": "Stamina", "social": "Social", "entertainment": "Fun"}
STAT_COLOURS: dict[str, tuple[int, int, int]] = {
    "stamina": (92, 196, 104),
    "social": (84, 150, 232),
    "entertainment": (240, 164, 58),
}
TEXT = (255, 255, 255)
PANEL = (16, 18, 28)
CARD_TOP = (28, 30, 52)
CARD_BOTTOM = (8, 8, 14)


def font_file(bold: bool = False) -> Path | None:
    """A TrueType font found on this machine (DejaVu first), or None."""
    for folder in FONT_DIRS:
        for name in FONT_FILES[bold]:
            candidate = folder / name
            if candidate.is_file():
                return candidate
    return None


def italic_font_file() -> Path | None:
    """DejaVu Sans Oblique when installed (narration), else None."""
    return next((folder / "DejaVuSans-Oblique.ttf" for folder in FONT_DIRS
                 if (folder / "DejaVuSans-Oblique.ttf").is_file()), None)


def _load(path: Path, size: int) -> PlainFont | None:
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return None


def styled_font_files(bold: bool = False, italic: bool = False) -> tuple[Path, ...]:
    """The style's font (bold or italic when installed), then the regular font: a styled font
    often lacks scripts the regular one has (DejaVu Sans Oblique has no Arabic, DejaVu Sans
    Bold no Runic), so its typeface falls back to the regular font before the machine's
    fallback fonts. Empty when the machine has no TrueType font."""
    regular = font_file(False)
    styled = italic_font_file() if italic else font_file(True) if bold else regular
    return tuple(dict.fromkeys(path for path in (styled, regular) if path is not None))


@functools.lru_cache(maxsize=64)
def load_typeface(size: int, bold: bool = False, italic: bool = False) -> Typeface:
    """The export's font at ``size`` pixels (bold or italic when installed, else regular),
    falling back to the regular font, then the machine's fallback fonts, for the characters
    it lacks (:func:`styled_font_files`)."""
    size = max(6, int(size))
    chain = styled_font_files(bold, italic)
    for at, path in enumerate(chain):
        font = _load(path, size)
        if font is not None:
            return Typeface(font, path, size, (*chain[at + 1:], *fallback_font_files()), embolden=bold)
    try:
        return Typeface(ImageFont.load_default(size=size), None, size)
    except TypeError:  # Pillow < 10.1
        return Typeface(ImageFont.load_default(), None, size)


def wrap_text(text: str, measure: Callable[[str], float], max_width: float, max_lines: int = 0,
              rtl: bool | None = None) -> list[str]:
    """Greedy word wrap; words wider than a line are broken; the last line gets an ellipsis
    when ``max_lines`` cuts the text. A long run without spaces (Japanese, say) is broken by
    bisection, so it costs a few measures of about a line each, not one per character.

    Each line keeps its paragraph's direction: that of the mark the paragraph opens with
    (:func:`_paragraph_rtl`), else ``rtl`` (right to left when True), by default the
    paragraph's first strong letter's. A line that would read the other way by its own
    first letter (an English sentence's second line that starts with an Arabic word) begins
    with an invisible mark of that direction (:func:`~studio.export.bidi_text.directed_lines`),
    so that it is reordered and aligned as the rest of its paragraph."""
    lines: list[str] = []

    def full() -> bool:  # past max_lines: the rest is cut anyway, so it is not measured
        return bool(max_lines) and len(lines) > max_lines

    for paragraph in text.splitlines() or [""]:
        first = len(lines)
        current = ""
        for word in filter(None, single_spaced(paragraph).split(" ")):
            candidate = f"{current} {word}" if current else word
            if measure(candidate) <= max_width:
                current = candidate
                continue
            if current:
                head = _head_after(current, word, measure, max_width)
                if head:  # Japanese or Chinese: the line is filled before it breaks
                    current, word = f"{current} {word[:head]}", word[head:]
                lines.append(current)
            breaks = wide_breaks(word)
            while len(word) > 1 and not full():
                cut = _break_within(word, _fitting_prefix(word, measure, max_width), breaks)
                if cut >= len(word):
                    break
                lines.append(word[:cut])
                word = word[cut:]
                breaks = [at - cut for at in breaks if at > cut]
            current = word
            if full():
                break
        lines.append(current)
        # a full-width space a line broke after is not drawn at its end (it took the room of a kana)
        lines[first:] = directed_lines([line.rstrip(IDEOGRAPHIC_SPACE) for line in lines[first:]],
                                       _paragraph_rtl(paragraph, rtl))
        if full():
            break
    while lines and not lines[-1]:
        lines.pop()
    if max_lines and len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        while last and measure(last + "…") > max_width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "…"
    return lines


def _paragraph_rtl(paragraph: str, rtl: bool | None) -> bool:
    """The direction of ``paragraph``'s lines: that of the mark it opens with, where it opens
    with one (a line of a joined subtitle read the other way than the subtitle:
    :func:`studio.export.subtitles.subtitle_lines`), else ``rtl``, else its first strong
    letter's. Its lines wrapped for the frame then go on in its direction: "Yuzu: مرحبا ..."
    after an English line reads right to left on every line it takes, not only its first."""
    if paragraph.startswith((LRM, RLM)):
        return paragraph.startswith(RLM)
    return starts_right_to_left(paragraph) if rtl is None else rtl


def fit_line(text: str, measure: Callable[[str], float], width: float) -> str:
    """``text`` on one line of ``width``: whole when it fits, else cut with "…"."""
    lines = wrap_text(single_spaced(text), measure, width, max_lines=1)
    return lines[0] if lines else ""


#: The line-breaking rules (kinsoku shori) Japanese and Chinese text wraps by: the strict rule
#: set of JIS X 4051 as the W3C's "Requirements for Japanese Text Layout" (JLREQ) lists it,
#: which CSS calls ``line-break: strict`` and Japanese subtitles and print follow. A line does
#: not start with closing brackets and quotes, hyphens and the wave dash, dividing punctuation,
#: middle dots, full stops and commas, iteration marks, the long-vowel mark, small kana, the
#: ellipses (``……`` stays together) or a unit after a number (``％``, ``℃``); it does not end
#: with an opening bracket or quote, nor a currency sign or ``＃``/``№`` before a number.
#: Half-width forms are listed with their full-width ones.
NO_LINE_START = frozenset(
    "）)]］｝}」』】〕〉》〙〗〟’”｠»｣"  # closing brackets and quotes
    "‐゠–〜～"  # hyphens, wave dash
    "！？!?‼⁇⁈⁉・：；:;･"  # dividing punctuation, middle dots
    "。．.｡、，,､"  # full stops, commas
    "ヽヾゝゞ々〻ーｰ゛゜"  # iteration marks, prolonged sound mark, sound marks
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿｧｨｩｪｫｯｬｭｮ"  # small kana
    "…‥"  # inseparable ellipses
    "\u3000"  # the full-width space: it ends the line before (see studio.export.spaces)
    "％‰°′″℃￠¢")  # units after a number
NO_LINE_END = frozenset(
    "（([［｛{「『【〔〈《〘〖〝‘“｟«｢"  # opening brackets and quotes
    "￥＄￡＃№$£¥€")  # signs before a number


def _word_character(char: str) -> bool:
    """Whether ``char`` is a Latin letter or a digit, half-width or full-width (``Ａ``, ``１``):
    no line breaks between two of them, so ``ＬＩＮＥ`` and ``２０２４`` stay whole in Japanese
    text as ``iPhone`` and ``2024`` do."""
    if char.isascii():
        return char.isalnum()
    return "\uff10" <= char <= "\uff19" or "\uff21" <= char <= "\uff3a" or "\uff41" <= char <= "\uff5a"


def _break_within(word: str, fits: int, breaks: list[int]) -> int:
    """Where a line of ``word`` (no spaces), whose first ``fits`` characters fit, ends: at the
    last of ``breaks`` (:func:`wide_breaks`) within them, so a Latin word or a number inside
    Japanese is not cut (``iP`` / ``hone``); only when none is (a run wider than the line with
    nowhere to break: a long Latin word, a row of ``。``) between any two characters, by
    :func:`_line_break_before`."""
    if fits >= len(word):
        return len(word)
    if word[fits] == IDEOGRAPHIC_SPACE:  # the line ends with the space, which is not drawn
        return fits + 1
    at = bisect_right(breaks, fits) - 1
    return breaks[at] if at >= 0 and breaks[at] > 0 else _line_break_before(word, fits)


def _line_break_before(word: str, cut: int) -> int:
    """Where to break ``word`` at or before ``cut``: between two characters as a reader sees them
    (never inside an emoji sequence nor before a combining mark: see :mod:`studio.core.graphemes`),
    and so that neither line breaks the line-breaking rules: the characters that may not start a
    line go back up with the one before them. When the whole line would go, it breaks at the last
    break before ``cut`` after all; a first character wider than the line keeps a line of its own."""
    if cut >= len(word):
        return len(word)
    starts = cluster_starts(word)
    fitting = bisect_right(starts, cut) - 1  # the last break at or before cut
    if fitting < 0:
        return starts[0] if starts else len(word)
    index = fitting
    while index > 0 and (word[starts[index]] in NO_LINE_START or word[starts[index] - 1] in NO_LINE_END):
        index -= 1
    return starts[index] if index > 0 else starts[fitting]


def _hangul(char: str) -> bool:
    """Whether ``char`` is a Hangul syllable or letter. Korean is written with spaces between
    words and breaks lines there, as Korean subtitles and CSS's ``word-break: keep-all`` do:
    a Korean word is not cut between its syllables (unless it is wider than a line)."""
    return "\uac00" <= char <= "\ud7a3" or "\u1100" <= char <= "\u11ff" or "\u3130" <= char <= "\u318f"


def wide_breaks(word: str) -> list[int]:
    """The offsets in ``word`` (no spaces) where a line may break as Japanese and Chinese break:
    between two characters as a reader sees them, next to a wide one, keeping the line-breaking
    rules (:data:`NO_LINE_START`, :data:`NO_LINE_END`), never inside a word of Latin letters or
    digits (:func:`_word_character`): ``iPhoneを`` breaks before ``を``, not after ``iP``;
    nor inside a Korean word (:func:`_hangul`)."""
    breaks: list[int] = []
    clusters = grapheme_clusters(word)
    at = len(clusters[0]) if clusters else 0
    for before, cluster in itertools.pairwise(clusters):
        if ((is_wide(before[0]) or is_wide(cluster[0]))
                and cluster[0] not in NO_LINE_START and before[-1] not in NO_LINE_END
                and not (_word_character(before[-1]) and _word_character(cluster[0]))
                and not (_hangul(before[-1]) and _hangul(cluster[0]))):
            breaks.append(at)
        at += len(cluster)
    return breaks


def _head_after(current: str, word: str, measure: Callable[[str], float], max_width: float) -> int:
    """How much of ``word``, too wide to follow ``current`` whole, still fits on ``current``'s
    line, cut where Japanese or Chinese text may break (0: none, the word starts the next line).

    Without it a caption ``Qiqi: こんにちは…`` left ``Qiqi:`` alone on its line and took a line
    more than the SRT's wrap, so a caption that fitted three lines was cut short."""
    breaks = wide_breaks(word)
    fits = 0
    low, high = 0, len(breaks) - 1
    while low <= high:  # widths grow with the prefix: bisect the breaks
        middle = (low + high) // 2
        if measure(f"{current} {word[:breaks[middle]]}") <= max_width:
            fits, low = breaks[middle], middle + 1
        else:
            high = middle - 1
    return fits


def _fitting_prefix(word: str, measure: Callable[[str], float], max_width: float) -> int:
    """The length of ``word``'s longest prefix that fits ``max_width`` (at least 1): doubled
    until it no longer fits, then bisected."""
    fits = 1
    while fits < len(word) and measure(word[:min(2 * fits, len(word))]) <= max_width:
        fits = min(2 * fits, len(word))
    if fits >= len(word):
        return len(word)
    too_long = min(2 * fits, len(word))
    while too_long - fits > 1:
        middle = (fits + too_long) // 2
        if measure(word[:middle]) <= max_width:
            fits = middle
        else:
            too_long = middle
    return fits


@dataclass(frozen=True)
class Patch:
    """An RGBA image to blend into frames at (x, y)."""

    x: int
    y: int
    rgba: np.ndarray

    def apply(self, frame: np.ndarray) -> np.ndarray:
        """Blend into a copy of ``frame`` (H x W x 3 uint8)."""
        out = np.array(frame, dtype=np.uint8, copy=True)
        h, w = self.rgba.shape[:2]
        region = out[self.y:self.y + h, self.x:self.x + w].astype(np.uint16)
        rgb = self.rgba[: region.shape[0], : region.shape[1], :3].astype(np.uint16)
        alpha = self.rgba[: region.shape[0], : region.shape[1], 3:4].astype(np.uint16)
        out[self.y:self.y + h, self.x:self.x + w] = ((rgb * alpha + region * (255 - alpha) + 127) // 255).astype(
            np.uint8)
        return out


def _patch_from(image: Image.Image, x: int, y: int) -> Patch:
    return Patch(x, y, np.asarray(image.convert("RGBA"), dtype=np.uint8))


CARD_LINES = 4


@functools.lru_cache(maxsize=16)
def card_layout(size: tuple[int, int], text: str) -> tuple[Typeface, tuple[str, ...], bool]:
    """The typeface and lines of a title or end card: at most :data:`CARD_LINES` lines; True
    when the text needed more and the last line was cut (it ends in an ellipsis). Cached: the
    export lays out each card once for its frames and asks again for its notes."""
    width, height = size
    text, room = text.strip(), width * 0.86
    size_px = max(12, height // 10)
    # a text longer than the card's lines takes a smaller type, down to half the usual, before
    # it is cut: a long title on a tall or narrow card (144x256) lost its last words to an
    # ellipsis over an empty half of the card
    least = max(12, size_px // 2)
    while True:
        face = load_typeface(size_px, bold=True)
        lines = wrap_text(text, face.width, room, max_lines=CARD_LINES)
        if len(lines) > 1 and size_px > 12 and len(lines) * face.line_height() > height * 0.8:
            size_px = max(12, int(size_px * 0.85))
        elif size_px > least and len(wrap_text(text, face.width, room, max_lines=CARD_LINES + 1)) > CARD_LINES:
            size_px = max(least, int(size_px * 0.85))
        else:
            break
    # a small frame (a 64x48 GIF) holds fewer lines even in the smallest type: drawn anyway,
    # the first and last lines ran off the card, cut through with no ellipsis
    most = lines_that_fit(height, card_line_step(face), CARD_LINES)
    if len(lines) > most:
        lines = wrap_text(text, face.width, room, max_lines=most)
    # one line more than the card holds is enough to tell (the rest is not measured)
    cut = len(lines) == most and len(wrap_text(text, face.width, room, max_lines=most + 1)) > most
    return face, tuple(lines), cut


def card_line_step(face: Typeface) -> int:
    """Pixels from one line of a card to the next."""
    return int(face.line_height() * 1.15)


def lines_that_fit(room: int, step: int, most: int) -> int:
    """How many lines ``step`` pixels apart fit in ``room`` pixels: 1 to ``most`` (one line is
    always drawn, however small the frame)."""
    return max(1, min(most, room // max(1, step)))


def render_card(size: tuple[int, int], text: str) -> np.ndarray:
    """A title or end card: centred, wrapped text on a dark gradient (see :func:`card_layout`).
    Returns H x W x 3."""
    width, height = size
    ramp = np.linspace(0.0, 1.0, height, dtype=np.float32)[:, None, None]
    top, bottom = np.array(CARD_TOP, np.float32), np.array(CARD_BOTTOM, np.float32)
    frame = np.broadcast_to(top * (1 - ramp) + bottom * ramp, (height, width, 3)).astype(np.uint8)
    image = Image.fromarray(np.ascontiguousarray(frame))
    draw = ImageDraw.Draw(image)
    face, lines, _cut = card_layout(size, text)
    step = card_line_step(face)
    y = (height - step * len(lines)) // 2
    for line in lines:
        face.draw(draw, ((width - face.width(line)) / 2, y), line, TEXT)
        y += step
    return np.asarray(image, dtype=np.uint8)


CAPTION_LINES = 3


@functools.lru_cache(maxsize=256)
def caption_layout(size: tuple[int, int], text: str, italic: bool = False,
                   top: int = 0, rtl: bool | None = None) -> tuple[Typeface, tuple[str, ...], bool]:
    """The typeface and lines of a burned caption (its spaces collapsed): at most
    :data:`CAPTION_LINES` lines, in a smaller type (down to two thirds) when the text needs it;
    True when even that size could not hold it and the last line was cut. ``top``: the highest
    row the caption's band may reach (below the state overlay: :func:`caption_top`). ``rtl``:
    the caption's direction, by default its first strong letter's; each of its lines is read
    in it (see :func:`wrap_text`). Cached: the export lays out each cue once for its frames and
    asks again for its notes.

    The type follows the frame's shorter side: sized by the height, a portrait frame's
    caption (53 pixels in 720x1280) held a third of the words a line of a landscape frame of
    that width holds, and a narration of two lines in 1280x720 was cut short in 720x1280.

    A line break in ``text`` starts a new line (a subtitle's lines as the SRT breaks them:
    :func:`studio.export.subtitles.subtitle_lines`); a line wider than the frame wraps on."""
    text = "\n".join(filter(None, (single_spaced(line) for line in text.split("\n"))))
    width, height = size
    pad = _caption_pad(height)
    room = width * 0.92 - 2 * pad
    largest = max(10, min(width, height) // 24)
    for points in range(largest, max(10, largest * 2 // 3) - 1, -1):
        face = load_typeface(points, italic=italic)
        # a line measured as it is drawn: in the typeface of the caption's language
        measure = functools.partial(face.width, context=text)
        # the band stays inside the frame: in a small one (48x32) the lines below its bottom were lost
        most = lines_that_fit(height - 2 * pad - _caption_margin(height) - top, face.line_height(), CAPTION_LINES)
        lines = wrap_text(text, measure, room, rtl=rtl)
        if len(lines) <= most:
            return face, tuple(lines), False
    lines = wrap_text(text, measure, room, max_lines=most + 1, rtl=rtl)[:most]
    return face, (*lines[:-1], end_at_word(lines[-1], measure, room)), True


def end_at_word(line: str, measure: Callable[[str], float], width: float) -> str:
    """``line``, the last a caption has room for, ended with "…" within ``width``: after its
    last word that leaves room for it (or, in Japanese or Chinese, where a line may break:
    :func:`wide_breaks`), so a caption cut short ends "around…", never "aroun…"; only a word
    wider than the line, already cut by :func:`wrap_text`, loses characters, whole ones."""
    if measure(line + "\u2026") <= width:
        return line + "\u2026"
    ends: list[int] = []
    at = 0
    for word in line.split(" "):
        ends.extend(at + cut for cut in wide_breaks(word))
        at += len(word)
        if word:
            ends.append(at)
        at += 1
    for end in sorted(set(ends), reverse=True):
        cut = line[:end].rstrip()
        if cut.strip("\u200e\u200f") and measure(cut + "\u2026") <= width:
            return cut + "\u2026"
    for start in reversed([0, *cluster_starts(line)]):  # one word wider than the line
        if measure(line[:start] + "\u2026") <= width:
            return line[:start].rstrip() + "\u2026"
    return "\u2026"


def _caption_pad(height: int) -> int:
    """Pixels between a caption's band and its text."""
    return max(4, height // 60)


def _caption_margin(height: int) -> int:
    """Pixels between a caption's band and the bottom of the frame."""
    return max(2, height // 40)


def caption_top(size: tuple[int, int], overlay: bool, named: bool = True) -> int:
    """The highest row a caption's band may reach: 0, or with the state ``overlay`` drawn (in
    its form for ``named``, see :func:`overlay_form`), the row a margin below its panel.

    In a small frame (128x72, 96x64) a caption of three lines rose over the overlay's lower
    bars and hid them; it now keeps to the rows below the panel, in fewer lines."""
    form = overlay_form(size, named) if overlay else None
    if form is None:
        return 0
    margin = overlay_margin(size)
    return margin + form.height + margin


def caption_patch(size: tuple[int, int], text: str, italic: bool = False, top: int = 0,
                  rtl: bool | None = None) -> Patch | None:
    """A caption at the bottom of the frame on a translucent band (None for no text), its band
    no higher than row ``top`` where the frame has room for a line there; its lines centred,
    each read in the caption's direction ``rtl`` (see :func:`caption_layout`)."""
    if not text.split():
        return None
    width, height = size
    face, lines, _cut = caption_layout(size, text, italic, top, rtl)
    pad = _caption_pad(height)
    step = face.line_height()
    band_h = step * len(lines) + 2 * pad
    image = Image.new("RGBA", (width, band_h), (*PANEL, 170))
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):  # each in the typeface of the caption's language, as measured
        face.draw(draw, ((width - face.width(line, text)) / 2, pad + row * step), line, (*TEXT, 255), context=text)
    margin = _caption_margin(height)
    return _patch_from(image, 0, max(0, height - band_h - margin))


def draw_state_bars(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], state: CharacterState,
                    face: Typeface, change: StateChange | None = None, text_fill: tuple[int, ...] = TEXT,
                    track_fill: tuple[int, ...] = (70, 70, 80), labels: Mapping[str, str] = STAT_LABELS,
                    values: bool = True) -> None:
    """Three labelled bars (stamina, social, entertainment) with their values (unless not
    ``values``), inside ``box``; each value followed by how far ``change`` moved it, where
    given (the change applied, after clamping to 0..100, never the predicted one)."""
    left, top, right, bottom = box
    rows = len(STAT_NAMES)
    row_h = (bottom - top) / rows
    label_w, value_w = _bar_text_widths(face, labels, values, change is not None)
    bar_left, bar_right = left + label_w, right - value_w
    bar_h = max(3.0, min(row_h * 0.45, face.line_height() * 0.7))
    for row, name in enumerate(STAT_NAMES):
        cy = top + row_h * (row + 0.5)
        value = getattr(state, name)
        face.draw(draw, (left, cy), labels[name], text_fill, anchor="lm")
        if bar_right - bar_left >= 4:
            draw.rectangle((bar_left, cy - bar_h / 2, bar_right, cy + bar_h / 2), fill=track_fill)
            filled = bar_left + (bar_right - bar_left) * value / STATE_MAX
            if filled > bar_left:
                draw.rectangle((bar_left, cy - bar_h / 2, filled, cy + bar_h / 2), fill=STAT_COLOURS[name])
        if not values:
            continue
        label = f"{value}"
        moved = getattr(change, name) if change is not None else 0
        label += f" ({moved:+d})" if moved else ""
        face.draw(draw, (right, cy), label, text_fill, anchor="rm")


def _bar_text_widths(face: Typeface, labels: Mapping[str, str], values: bool, changes: bool) -> tuple[float, float]:
    """The room :func:`draw_state_bars` keeps left of the bars (labels) and right (values and,
    with ``changes``, the widest change a turn makes: 5 x 5 points)."""
    label_w = max(face.width(f"{labels[name]} ") for name in STAT_NAMES)
    value_w = face.width(" 100 (+25)" if changes else " 100") if values else 0.0
    return label_w, value_w


SHORT_STAT_LABELS = {"stamina": "Sta", "social": "Soc", "entertainment": "Fun"}
OVERLAY_SHARE = 0.6
"""The most of the frame's width, and of its height, the state overlay may take (with its margin)."""
OVERLAY_SMALLEST_TYPE = 7
"""The smallest type the state overlay is drawn in (pixels); smaller is not read."""
OVERLAY_SHORTEST_BAR = 16
"""The shortest bar (pixels) the state overlay is drawn with."""


@dataclass(frozen=True)
class OverlayForm:
    """How the state overlay is drawn at a frame size: its type, labels, and whether it is
    headed by the character's name and shows the values; its panel's size."""

    px: int
    labels: Mapping[str, str]
    heading: bool
    values: bool
    pad: int
    width: int
    height: int


OVERLAY_WIDTH = 0.34
"""The share of a landscape frame's width the state overlay's panel takes at least."""
PORTRAIT_OVERLAY_WIDTH = 0.55
"""The same in a portrait frame: a third of its narrow width left the bars no room."""


def _overlay_forms(size: tuple[int, int], named: bool) -> Iterator[OverlayForm]:
    """The overlay's forms for ``size``, largest first: the panel as it has always been drawn,
    then narrower and in smaller type, then without the name, with short labels, and without
    the values.

    The type and padding follow the frame's shorter side, and a portrait frame's panel takes
    a larger share of its width: sized by the height, a portrait frame's type (64 pixels in
    1080x1920) took the panel's width for its labels and values, and each bar was drawn at
    its shortest, a 17-pixel stub in a panel of 492."""
    width, height = size
    short = min(width, height)
    natural = max(9, short // 30)
    share = PORTRAIT_OVERLAY_WIDTH if height > width else OVERLAY_WIDTH
    yield _overlay_form(natural, STAT_LABELS, named, True, max(3, short // 80), max(120, int(width * share)), 1.25)
    kinds = [(STAT_LABELS, True, True)] if named else []
    kinds += [(STAT_LABELS, False, True), (SHORT_STAT_LABELS, False, True), (SHORT_STAT_LABELS, False, False)]
    for labels, heading, values in kinds:
        for px in range(natural, OVERLAY_SMALLEST_TYPE - 1, -1):
            yield _overlay_form(px, labels, heading, values, 2, int(width * share), 1.1)


def _overlay_form(px: int, labels: Mapping[str, str], heading: bool, values: bool, pad: int, least_width: int,
                  row_lines: float) -> OverlayForm:
    """An overlay form with its panel's size: at least ``least_width`` wide and wide enough for
    a bar of :data:`OVERLAY_SHORTEST_BAR`; ``row_lines`` line heights a row."""
    face = load_typeface(px)
    label_w, value_w = _bar_text_widths(face, labels, values, False)
    panel_w = max(least_width, 2 * pad + math.ceil(label_w + value_w) + OVERLAY_SHORTEST_BAR)
    above = int(face.line_height() * 1.2) if heading else 0
    panel_h = int(face.line_height() * row_lines * len(STAT_NAMES) + 2 * pad) + above
    return OverlayForm(px, labels, heading, values, pad, panel_w, panel_h)


@functools.lru_cache(maxsize=16)
def overlay_form(size: tuple[int, int], named: bool = True) -> OverlayForm | None:
    """The largest form of the state overlay that takes at most :data:`OVERLAY_SHARE` of the
    frame's width and height (``named``: headed by the character's name where it fits); None
    when even the smallest is too large for the frame: the overlay is left out.

    The panel was 120 pixels wide at least and 65 high: in a frame smaller than about 126x70
    it ran off the frame's edges, and in one a little larger it covered most of the picture."""
    width, height = size
    margin = overlay_margin(size)
    for form in _overlay_forms(size, named):
        if margin + form.width <= width * OVERLAY_SHARE and margin + form.height <= height * OVERLAY_SHARE:
            return form
    return None


def overlay_least_frame() -> tuple[int, int]:
    """The smallest frame (width, height) the state overlay is drawn in, in its smallest form."""
    smallest = list(_overlay_forms((1, 1), named=False))[-1]
    margin = overlay_margin((1, 1))  # a frame this small has the smallest margin
    return math.ceil((margin + smallest.width) / OVERLAY_SHARE), math.ceil((margin + smallest.height) / OVERLAY_SHARE)


def overlay_margin(size: tuple[int, int]) -> int:
    """Pixels between the state overlay and the frame's top and left edges: a sixtieth of the
    frame's shorter side. Of its height, a frame more than three times as tall as wide (a
    200x1200 story format) had a margin wider than the room its width left beside the
    panel, and lost the overlay, its note asking for a size smaller than it was."""
    return max(2, min(size) // 60)


def state_patch(size: tuple[int, int], state: CharacterState, character: str = "") -> Patch:
    """The state panel for the top-left corner of the frame, as AnimeGamer's demo shows it,
    headed by whose state it is, in the form that fits the frame (:func:`overlay_form`);
    an empty patch where no form fits."""
    form = overlay_form(size, bool(character))
    margin = overlay_margin(size)
    if form is None:
        return Patch(margin, margin, np.zeros((0, 0, 4), dtype=np.uint8))
    pad, panel_w, panel_h = form.pad, form.width, form.height
    face = load_typeface(form.px)
    heading = int(face.line_height() * 1.2) if form.heading else 0
    image = Image.new("RGBA", (panel_w, panel_h), (*PANEL, 160))
    draw = ImageDraw.Draw(image)
    if form.heading:
        bold = load_typeface(form.px, bold=True)
        bold.draw(draw, (pad, pad), fit_line(character, bold.width, panel_w - 2 * pad), TEXT)
    draw_state_bars(draw, (pad, pad + heading, panel_w - pad, panel_h - pad), state, face,
                    labels=form.labels, values=form.values)
    return _patch_from(image, margin, margin)


def fit_image(image: Image.Image, box_w: int, box_h: int) -> Image.Image:
    """Scale ``image`` to fit inside box_w x box_h, keeping its aspect ratio."""
    scale = min(box_w / image.width, box_h / image.height)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, Image.Resampling.LANCZOS) if size != image.size else image
