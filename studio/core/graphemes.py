"""Where text may be cut: between the characters a reader sees, never inside one.

A character on screen can be several code points: a letter and its combining marks (``か``
and the combining dakuten ``\\u3099``), an emoji and its variation selector (``☕️``) or skin
tone (``👍🏽``), emoji joined by zero-width joiners (``👨‍👩‍👧``), a flag (two regional
indicators), a keycap (``1️⃣``), a subdivision flag's tag characters. Line wrapping that cut
between them drew half an emoji at a line's end and a dotted circle, or a lone skin tone,
at the next line's start. :func:`grapheme_clusters` groups them as Unicode's extended
grapheme clusters (UAX #29), by the ``regex`` module.
"""

from __future__ import annotations

import unicodedata


def grapheme_clusters(text: str) -> list[str]:
    """``text`` as the characters a reader sees, in order (joined, they give ``text`` back):
    the ``regex`` module's extended grapheme clusters (``\\X``)."""
    import regex  # type: ignore[import-untyped]

    return list(regex.findall(r"\X", text))


def cluster_starts(text: str) -> list[int]:
    """The offsets in ``text`` where a character after the first begins: where it may be cut."""
    starts: list[int] = []
    at = 0
    for cluster in grapheme_clusters(text):
        if at:
            starts.append(at)
        at += len(cluster)
    return starts


def whole_characters(text: str, limit: int) -> str:
    """The longest start of ``text`` of at most ``limit`` code points that ends between two
    characters a reader sees: a cut by code points left half of an emoji joined by zero-width
    joiners, one regional indicator of a flag, or a letter without its combining accent.
    (Where a character starts depends only on what comes before it and just after, so only
    the first ``limit + 1`` code points are looked at: a 2,000-character text is not split
    whole for each line of a long listing.)"""
    if len(text) <= limit:
        return text
    return text[:max((start for start in cluster_starts(text[:limit + 1]) if start <= limit), default=0)]


def is_wide(char: str) -> bool:
    """Whether ``char`` is East Asian wide or full-width (Japanese, Chinese, Korean, full-width
    forms): text of such characters has no spaces and may break between any two of them."""
    return unicodedata.east_asian_width(char) in "WF"


def grapheme_count(text: str) -> int:
    """How many characters a reader sees in ``text`` (``👨‍👩‍👧`` is one, ``が`` written as
    か and a combining dakuten is one): the count an author checks a limit against."""
    import regex

    return sum(1 for _ in regex.finditer(r"\X", text))


def first_graphemes(text: str, limit: int) -> str:
    """The first ``limit`` characters of ``text`` as a reader sees them (never part of one:
    an emoji keeps its skin tone and the people its joiners join). Only as much of ``text``
    as that is looked at, so a 100 KB paste costs no more than a short one."""
    import regex

    if limit <= 0:
        return ""
    end = 0
    for count, match in enumerate(regex.finditer(r"\X", text), start=1):
        end = match.end()
        if count == limit:
            break
    return text[:end]


def script_of(char: str) -> str:
    """The script of one character, as far as telling Japanese, Chinese and Korean text apart
    needs it: ``kana`` (hiragana, katakana, the long-vowel mark, half-width katakana), ``han``
    (kanji, hanzi, 々 and 〆), ``hangul``, ``letter`` (any other letter: Latin, Cyrillic...) or
    '' (digits, punctuation, emoji, spaces)."""
    code = ord(char)
    if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0xFF66 <= code <= 0xFF9F:
        return "kana"
    if (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF
            or 0x20000 <= code <= 0x3FFFF or char in "々〆"):
        return "han"
    if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "hangul"
    return "letter" if char.isalpha() else ""


def scripts_in(*texts: str) -> set[str]:
    """The scripts (:func:`script_of`) the characters of ``texts`` are written in."""
    return {script_of(char) for text in texts for char in text} - {""}
