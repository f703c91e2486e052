"""Right-to-left text (Arabic, Hebrew...) for a canvas that draws characters left to right,
one glyph each, in the order given: reportlab's PDF canvas.

reportlab neither joins Arabic letters nor reorders right-to-left text (its own support
needs ``rlbidi``, which is not on PyPI), so "مرحبا" came out in a PDF sheet as separate
letters, backwards. Pillow draws the PNG sheet through libraqm (FriBiDi and HarfBuzz) and
does both. :func:`visual_line` prepares one line for such a canvas, with two libraries:

1. ``arabic-reshaper`` gives each Arabic letter its joined form, the presentation form
   (initial, medial, final or isolated) that fonts map to a code point of its own, and
   makes the lam-alef ligatures. This is done in logical order.
2. ``python-bidi`` (the ``unicode-bidi`` crate) puts the line in visual order by the Unicode
   Bidirectional Algorithm: right-to-left runs reversed, numbers and Latin words inside them
   kept left to right, the line's direction taken from its first strong letter (as libraqm
   does for each line of the PNG).

A line is prepared after the layout has wrapped its paragraph: wrapping works on text in
logical order, the canvas draws each line in visual order (and measures it so, as joined
forms have widths of their own).

A paragraph has one direction, its first strong letter's (rules P2 and P3), and every line
it wraps into is reordered and aligned by it: the second line of an English sentence that
starts with an Arabic word still reads left to right. The wrapping
(:func:`studio.export.drawing.wrap_text`) begins each line whose own first strong letter
would say otherwise with a mark of the paragraph's direction (:func:`directed_lines`), an
invisible strong letter (LRM or RLM) that every step after it takes the line's direction
from: the reordering here, libraqm's in the PNG and the alignment of sheet lines
(:func:`starts_right_to_left`). The mark is dropped from the visual line.

The crate leaves out rule L4 of the algorithm (python-bidi issue #25): a bracket in a
right-to-left run must be drawn mirrored, or "(نص)" shows as ")نص(". It does not tell the
levels it resolved, so each mirrored character goes through it with a probe: a combining
mark right after it, which takes the character's level (rules W1 and N0) and stays next
to it. When the pair comes out reversed the character sits at an odd (right-to-left) level
and is drawn with its mirror image. An emoji of several characters (👋🏽, ☀️, 👩‍👧) goes
through as one stand-in symbol, or a right-to-left run would turn it around. Combining
marks are left where the algorithm puts them, before their base letter: DejaVu Sans draws
its Hebrew points and Arabic vowel signs to the right of where they stand, over the letter
drawn after them.

Text with no right-to-left letter nor bidi control is returned unchanged.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

#: Bidi classes that make a line go through the algorithm: right-to-left letters and the
#: explicit embeddings, overrides and isolates.
_BIDI_CLASSES = frozenset({"R", "AL", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"})

#: The Bidi_Control characters: invisible, dropped from the visual line (ALM, LRM, RLM, the
#: embeddings, overrides and isolates).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: Combining marks (bidi class NSM) that no text is expected to hold, used as probes; the
#: first not in the line is taken.
_PROBES = ("\u1ab0", "\u1ab1", "\u1ab2", "\u1ab3")

#: What extends an emoji: variation selectors, the keycap, skin tones, tag characters (a
#: ZWJ and the pictograph after it join too).
_EMOJI_EXTENDERS = re.compile("[\ufe0e\ufe0f\u20e3\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f]")

#: Stand-ins for emoji sequences while the line is reordered: symbols of the same bidi class
#: as pictographs (ON, neutral), never mirrored (Control Pictures).
_STAND_INS = tuple(chr(code) for code in range(0x2400, 0x2427))

#: Arabic Presentation Forms A and B: the joined forms the reshaper writes.
_PRESENTATION_FORMS = ((0xFB50, 0xFDFF), (0xFE70, 0xFEFF))


def needs_bidi(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter or a bidi control: whether it must be
    shaped and reordered before a left-to-right canvas draws it."""
    return not text.isascii() and any(unicodedata.bidirectional(char) in _BIDI_CLASSES or char in BIDI_CONTROLS
                                      for char in text)


_ISOLATE_OPENERS = frozenset({"LRI", "RLI", "FSI"})


def starts_right_to_left(text: str) -> bool:
    """Whether ``text``'s paragraph direction is right to left: its first strong letter, not
    counting what isolates hold, is Arabic or Hebrew (rules P2 and P3 of the Unicode
    Bidirectional Algorithm, by which each line is reordered). Such a line is aligned right."""
    if text.isascii():
        return False
    depth = 0
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in _ISOLATE_OPENERS:
            depth += 1
        elif kind == "PDI":
            depth = max(0, depth - 1)
        elif depth == 0 and kind in ("L", "R", "AL"):
            return kind != "L"
    return False


LRM = "\u200e"
RLM = "\u200f"


def directed_lines(lines: Sequence[str], rtl: bool) -> list[str]:
    """The ``lines`` a paragraph of direction ``rtl`` (right to left when True) was wrapped
    into, each that would read in the other direction by its own first strong letter (an
    Arabic word first in an English sentence's second line, a Latin name first in an Arabic
    one's, or no letter at all) begun with the paragraph's mark (RLM or LRM): it is then
    reordered and aligned as its paragraph, not as a paragraph of its own. Empty lines, lines
    that agree already and lines that open with a mark of their own (a part of a joined
    subtitle read in the other direction: :func:`studio.export.subtitles.subtitle_lines`)
    come back as they are."""
    mark = RLM if rtl else LRM
    return [mark + line if line and not line.startswith((LRM, RLM)) and starts_right_to_left(line) != rtl else line
            for line in lines]


@functools.cache
def _reshaper() -> Any:
    import arabic_reshaper  # type: ignore[import-untyped]

    # Harakat (vowel signs) kept: the default drops them. A letter that joins neither side
    # keeps its own code point, which fonts draw as the isolated form: the PDF's text holds
    # fewer presentation forms. The "Allah" word ligature off: a character few fonts have
    # (DejaVu Sans lacks it). The lam-alef ligatures stay, as Arabic requires them.
    return arabic_reshaper.ArabicReshaper(configuration={
        "delete_harakat": False, "use_unshaped_instead_of_isolated": True, "ARABIC LIGATURE ALLAH": False})


ZWJ = "\u200d"
TATWEEL = "\u0640"


def shape_arabic(text: str) -> str:
    """``text`` (logical order) with its Arabic letters in their joined presentation forms.

    The reshaper drops every zero width joiner from its output but finds the lam-alef
    ligatures by their place in its input, so after a ZWJ (one joining an emoji, 👩‍👧, or
    one after a letter) it merged the wrong letters ("سلام" lost its last letter) or failed
    with an IndexError that stopped the export. A ZWJ goes through as a tatweel, which joins
    as a ZWJ does and is kept, and is put back after: the k-th tatweel out is the k-th in
    (no ligature the reshaper makes holds one once the vowel signs are set aside)."""
    if not any(unicodedata.bidirectional(char) == "AL" for char in text):
        return text
    shaped = str(_reshaper().reshape(text.replace(ZWJ, TATWEEL)))
    if ZWJ not in text:
        return shaped
    was_joiner = iter([char == ZWJ for char in text if char in (ZWJ, TATWEEL)])
    return "".join(ZWJ if char == TATWEEL and next(was_joiner, False) else char for char in shaped)


def _emoji_sequences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each emoji of several characters in ``text``: a neutral symbol with
    its variation selector, skin tone or keycap, and the pictographs joined to it by ZWJs."""
    found: list[tuple[int, int]] = []
    at = 0
    while at < len(text):
        end = at + 1
        if unicodedata.bidirectional(text[at]) == "ON":
            while end < len(text):
                if _EMOJI_EXTENDERS.match(text[end]):
                    end += 1
                elif text[end] == "\u200d" and end + 1 < len(text) and unicodedata.bidirectional(text[end + 1]) == "ON":
                    end += 2
                else:
                    break
        if end - at > 1:
            found.append((at, end))
        at = end
    return found


def reorder(text: str) -> str:
    """``text`` (logical order) in visual order, left to right, by the Unicode Bidirectional
    Algorithm with its mirrored brackets (rule L4); bidi controls stay in.

    The algorithm orders characters, so a right-to-left run would turn an emoji sequence
    (👋🏽, ☀️, 👩‍👧) around: each goes through it as one stand-in symbol."""
    sequences = _emoji_sequences(text)
    stand_ins = [char for char in _STAND_INS if char not in text][:len(sequences)]
    if not sequences or len(stand_ins) < len(sequences):
        return _reorder(text)
    pieces: list[str] = []
    kept: dict[str, str] = {}
    at = 0
    for (start, end), stand_in in zip(sequences, stand_ins, strict=True):
        pieces += [text[at:start], stand_in]
        kept[stand_in] = text[start:end]
        at = end
    pieces.append(text[at:])
    return "".join(kept.get(char, char) for char in _reorder("".join(pieces)))


def _reorder(text: str) -> str:
    """:func:`reorder` for text without emoji sequences: python-bidi's order, then L4."""
    from bidi import get_display  # type: ignore[import-untyped]
    from bidi.mirror import MIRRORED  # type: ignore[import-untyped]

    if not any(char in MIRRORED for char in text):
        return str(get_display(text))
    probe = next((mark for mark in _PROBES if mark not in text), None)
    if probe is None:  # the line holds every probe: not mirrored
        return str(get_display(text))
    shown = str(get_display("".join(char + probe if char in MIRRORED else char for char in text)))
    out: list[str] = []
    at = 0
    while at < len(shown):
        char = shown[at]
        if char == probe and at + 1 < len(shown):  # probe first: the pair was reversed, right to left
            out.append(MIRRORED.get(shown[at + 1], shown[at + 1]))
            at += 2
        elif char in MIRRORED and shown[at + 1:at + 2] == probe:  # kept in order: left to right
            out.append(char)
            at += 2
        else:
            out.append(char)
            at += 1
    return "".join(out)


def _in_forms(code: int) -> bool:
    return any(low <= code <= high for low, high in _PRESENTATION_FORMS)


@functools.lru_cache(maxsize=4096)
def _visual_line(text: str, covers: tuple[frozenset[int], ...]) -> str:
    line = "".join(char for char in reorder(shape_arabic(text)) if char not in BIDI_CONTROLS)
    if not covers:
        return line
    # A joined form no font has is drawn as its letters (unjoined, still readable) rather
    # than as an empty box; a ligature's letters in visual order.
    return "".join(unicodedata.normalize("NFKC", char)[::-1]
                   if _in_forms(ord(char)) and not any(ord(char) in cover for cover in covers) else char
                   for char in line)


def visual_line(text: str, covers: Sequence[frozenset[int]] = ()) -> str:
    """One line of text (logical order, as typed and wrapped) as a left-to-right canvas must
    draw it: Arabic joined, right-to-left runs reversed, brackets in them mirrored, bidi
    controls dropped. ``covers``: the character maps of the fonts that will draw it, when
    known; a joined form none of them has is drawn as its plain letters. Text that needs
    none of this (Latin, Japanese...) comes back as it is."""
    if not needs_bidi(text):
        return text
    return _visual_line(text, tuple(covers))
