"""Checks shared by every field a user types: which characters text may hold.

An instruction, a dialogue line or a speaker's name is one line of plain text; narration
and shot notes may also hold line breaks (``\\n``). Nothing else below U+0020 (the tab
included), DEL or the C1 controls (U+007F..U+009F) is accepted: they are invisible on a
card, break subtitles and timelines, and can rewrite a terminal when printed.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

CONTROL_NAMES: dict[str, str] = {
    "\x00": "NUL", "\x07": "BEL", "\x08": "a backspace", "\t": "a tab", "\n": "a line break",
    "\x0b": "a vertical tab", "\x0c": "a page break", "\r": "a carriage return", "\x1b": "ESC", "\x7f": "DEL",
    "\x85": "a next-line control", "\u2028": "a line separator", "\u2029": "a paragraph separator",
    "\u202a": "a left-to-right embedding", "\u202b": "a right-to-left embedding",
    "\u202c": "a pop of directional formatting", "\u202d": "a left-to-right override",
    "\u202e": "a right-to-left override", "\u2066": "a left-to-right isolate", "\u2067": "a right-to-left isolate",
    "\u2068": "a first-strong isolate", "\u2069": "a pop of directional isolate",
    "\u200b": "a zero-width space", "\u200c": "a zero-width non-joiner", "\u200d": "a zero-width joiner",
    "\u2060": "a word joiner", "\ufeff": "a zero-width no-break space",
    "\u200e": "a left-to-right mark", "\u200f": "a right-to-left mark", "\u3000": "an ideographic space",
    "\ufe0e": "a text variation selector", "\ufe0f": "an emoji variation selector", "\u3164": "a Hangul filler",
}

UNICODE_LINE_BREAKS = frozenset("\u2028\u2029")
"""Not control characters, but line breaks wherever text is laid out (Qt, browsers, JSON
readers): a one-line field refuses them too."""


def is_control(char: str) -> bool:
    """Whether ``char`` is a C0 control (tab and line breaks included), DEL or a C1 control."""
    code = ord(char)
    return code < 0x20 or 0x7F <= code < 0xA0


def describe_character(char: str) -> str:
    """``U+0009, a tab``: the code point, and a name where it has a well-known one."""
    name = CONTROL_NAMES.get(char)
    return f"U+{ord(char):04X}, {name}" if name else f"U+{ord(char):04X}"


def first_control(text: str, *, line_breaks: bool = False) -> tuple[int, str] | None:
    """The first control character of ``text`` as (position from 1, character), or None.
    With ``line_breaks``, ``\\n`` is allowed."""
    for position, char in enumerate(text, start=1):
        if is_control(char) and not (line_breaks and char == "\n"):
            return position, char
    return None


def unix_line_breaks(text: str) -> str:
    """``text`` with Windows (``\\r\\n``) and old Mac (``\\r``) line ends as ``\\n``: a
    narration pasted from a Windows file is several lines, not a carriage return refused."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: in a name they reorder what follows them wherever the
name is shown (a cast list, a sheet, a terminal), so the name reads as something else. The
plain marks (U+200E, U+200F) stay allowed: right-to-left names need them."""

ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")
"""Characters that show as nothing: "Qi", U+200B, "qi" prints as "Qiqi" yet is another name."""

JOINERS = frozenset("\u200c\u200d")
"""U+200C and U+200D are zero-width too, but they change how the characters either side of
them are drawn in scripts that join letters (Persian words, Indic half-forms) and the
joiner makes emoji sequences (a family, a rainbow flag): there a name needs them."""

_JOINING_SCRIPTS = ((0x0600, 0x08FF), (0x0900, 0x0DFF), (0x0F00, 0x109F), (0x1780, 0x18AF), (0xFB50, 0xFDFF),
                    (0xFE70, 0xFEFC))
"""Arabic, Syriac, Thaana, N'Ko...; the Indic scripts (Devanagari to Sinhala); Tibetan and
Myanmar; Khmer and Mongolian; Arabic presentation forms."""

_EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)
_EMOJI_PRESENTATION = "\ufe0f"


def _in_joining_script(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _JOINING_SCRIPTS)


def _joins(before: str, after: str, joiner: str) -> bool:
    """Whether ``joiner`` between ``before`` and ``after`` changes how they are drawn."""
    if _in_joining_script(before) and _in_joining_script(after):
        return True
    emoji_before = (unicodedata.category(before) == "So" or before == _EMOJI_PRESENTATION
                    or ord(before) in _EMOJI_MODIFIERS)
    return joiner == "\u200d" and emoji_before and unicodedata.category(after) == "So"


def first_zero_width(text: str) -> tuple[int, str] | None:
    """The first character of ``text`` that shows as nothing, as (position from 1,
    character), or None: U+200B, U+2060 and U+FEFF anywhere; U+200C and U+200D unless they
    stand between two characters they join (see :data:`JOINERS`)."""
    for index, char in enumerate(text):
        if char not in ZERO_WIDTH:
            continue
        if char in JOINERS and 0 < index < len(text) - 1 and _joins(text[index - 1], text[index + 1], char):
            continue
        return index + 1, char
    return None


def zero_width_problem(name: str, what: str) -> str:
    """Why ``name`` can't be a name because it holds a character that shows as nothing ('' when
    it holds none); ``what`` says whose name it is ("The name", "The speaker's name")."""
    found = first_zero_width(name)
    if found is None:
        return ""
    position, char = found
    return (f"{what} {name!r} holds {describe_character(char)} at character {position}: it shows as nothing, "
            "so the name looks like one without it but is a different name.")


MAX_NAME_CHARS = 100
"""The longest name of a character or a location: it is shown on cards and sheets and typed
in instructions (at most 2,000 characters)."""


def name_shape_problem(name: str, what: str) -> str:
    """Why ``name`` is too long or holds a directional control or a character that shows as
    nothing ('' when none of them); ``what`` says whose name it is ("The name", "The
    location name")."""
    if len(name) > MAX_NAME_CHARS:
        return f"{what} is {len(name):,} characters long; the limit is {MAX_NAME_CHARS}."
    for position, char in enumerate(name, start=1):
        if char in BIDI_CONTROLS:
            return (f"{what} {name!r} holds {describe_character(char)} at character {position}: it would show "
                    "the rest of the name reordered.")
    return zero_width_problem(name, what)


def one_line(text: str) -> str:
    """``text`` read from outside (a folder's name, a file anyone could write) made fit for a
    title or a message: control characters (terminal escapes, BEL, line breaks), directional
    embeddings, overrides and isolates and Unicode line breaks become spaces, a lone surrogate
    U+FFFD, and runs of white space one space, trimmed. Callers apply their own length rule."""
    cleaned = "".join(" " if is_control(c) or c in BIDI_CONTROLS or c in UNICODE_LINE_BREAKS
                      else "\ufffd" if 0xD800 <= ord(c) < 0xE000 else c for c in text)
    return " ".join(cleaned.split())


def first_few(items: Sequence[str], separator: str = ", ", limit: int = 8) -> str:
    """``items`` joined for a message: the first ``limit`` of them and how many more."""
    more = f" and {len(items) - limit:,} more" if len(items) > limit else ""
    return separator.join(items[:limit]) + more


_BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")
"""Characters that are not format characters yet draw nothing (Unicode's default-ignorable
ones outside category Cf): the combining grapheme joiner, the Hangul fillers (letters that
look like a space, used for names that look empty), two Khmer vowels never shown alone."""


def _draws_nothing(char: str) -> bool:
    code = ord(char)
    return (char.isspace() or is_control(char) or unicodedata.category(char) == "Cf" or char in _BLANK_LETTERS
            or 0xFE00 <= code <= 0xFE0F or 0x180B <= code <= 0x180F or 0xE0100 <= code <= 0xE01EF)


def shows_something(text: str) -> bool:
    """Whether ``text`` draws anything: a character that is neither white space nor a control
    nor a format character (the directional marks, zero-width spaces and joiners) nor another
    that draws nothing (variation selectors, Hangul fillers: see :data:`_BLANK_LETTERS`). A
    title typed as only U+200F made a blank title card."""
    return not all(_draws_nothing(c) for c in text)
