"""How long a caption's text takes to read, for Latin and for Japanese, Chinese and Korean text.

Subtitle style guides give a reading speed per language in characters a second. English
and other languages written with spaces are read at about 17 (every character counted,
spaces too); a Japanese character carries far more than a Latin letter, and a Japanese
viewer reads about 4 a second. A caption's time was reckoned at 17 characters a second
whatever its language, so a Japanese line of 40 characters counted as read in 2.4 s, not
10 s, and lent the time it needed to a short caption beside it
(:mod:`studio.export.caption_timing`).

The rule (the professional guidance of the timed-text style guides, for adults):

* text whose words of other letters (Latin, Cyrillic...) outnumber its Japanese, Chinese and
  Korean characters is read as that language, whatever the rest (``Qiqi met 美咲 at the
  station`` is English); else it is Japanese, Korean or Chinese as follows, so a Japanese
  line with an English name in it (``Qiqi: こんにちは``) is Japanese;
* text with kana (hiragana or katakana) is Japanese: :data:`JAPANESE_CHARS_PER_SECOND`;
* else text with Hangul is Korean: :data:`KOREAN_CHARS_PER_SECOND`;
* else text with Han characters is Chinese: :data:`CHINESE_CHARS_PER_SECOND`, unless it is
  part of a longer text with kana or Hangul (a subtitle of kanji alone cut from a Japanese
  line is read as Japanese: its ``context``);
* in these three, each character as a reader sees it counts one when full-width, a half when
  half-width (Latin letters, digits, the ``:`` after a speaker's name), spaces none;
* any other text: :data:`READING_CHARS_PER_SECOND`, every code point counted, as before.

:func:`reading_weight` gives the same time as a count of Latin characters, which is how
the time of a turn is shared among its cues, so a Japanese line beside an English one gets
the longer share it needs to be read.
"""

from __future__ import annotations

import math
from fractions import Fraction

from studio.core.graphemes import grapheme_clusters, is_wide, script_of, scripts_in

READING_CHARS_PER_SECOND = 17
"""Characters a second an adult reads subtitles at in English and other languages written
with spaces (Netflix's timed-text style guide)."""

JAPANESE_CHARS_PER_SECOND = 4
"""Full-width characters a second an adult reads Japanese subtitles at (Netflix's Japanese
timed-text style guide: 4 for adult programmes)."""

CHINESE_CHARS_PER_SECOND = 7
"""Characters a second for Chinese: the Traditional Chinese guide's 7 (the Simplified
guide's is 9; the slower of the two leaves time for both)."""

KOREAN_CHARS_PER_SECOND = 12
"""Characters a second for Korean (the Korean guide's)."""


EAST_ASIAN = frozenset({"kana", "han", "hangul"})


def _mostly_other_words(text: str) -> bool:
    """Whether ``text`` has more words of other letters (runs of Latin, Cyrillic... letters)
    than Japanese, Chinese and Korean characters: English with a Japanese name in it."""
    words = east_asian = 0
    in_word = False
    for char in text:
        script = script_of(char)
        east_asian += script in EAST_ASIAN
        words += script == "letter" and not in_word
        in_word = script == "letter"
    return words > east_asian


def caption_language(text: str, context: str = "") -> str | None:
    """The language a caption's ``text`` is read in, by the module's rule: ``ja``, ``ko`` or
    ``zh`` (``context``: the text it was cut from, which decides for a text of Han characters
    alone), or None for any other text. A mixed line follows its main language: a Japanese
    line with an English name in it (``Qiqi: こんにちは``) is Japanese. The one classifier of
    the export: reading speeds here, subtitle line lengths
    (:func:`studio.export.subtitles.line_columns`) and the typeface a Japanese, Chinese or
    Korean run is drawn in (:mod:`studio.export.typeface`) all follow it."""
    scripts = scripts_in(text)
    if not scripts & EAST_ASIAN or _mostly_other_words(text):
        return None
    if "kana" in scripts:
        return "ja"
    if "hangul" in scripts:
        return "ko"
    if "han" in scripts:
        return (caption_language(context) or "zh") if context else "zh"
    return None


RATES = {"ja": JAPANESE_CHARS_PER_SECOND, "ko": KOREAN_CHARS_PER_SECOND, "zh": CHINESE_CHARS_PER_SECOND}
"""Characters a second, by :func:`caption_language`."""


def east_asian_rate(text: str, context: str = "") -> int | None:
    """The reading speed of ``text`` when it is Japanese, Korean or Chinese (see the module's
    rule; ``context``: the text it was cut from), else None."""
    language = caption_language(text, context)
    return None if language is None else RATES[language]


def reading_seconds(text: str, context: str = "") -> Fraction:
    """The seconds ``text`` takes to read (see the module's rule; ``context``: the text it
    was cut from, if any)."""
    rate = east_asian_rate(text, context)
    if rate is None:
        return Fraction(len(text), READING_CHARS_PER_SECOND)
    count = sum((Fraction(1) if is_wide(cluster[0]) else Fraction(1, 2)
                 for cluster in grapheme_clusters(text) if not cluster.isspace()), Fraction(0))
    return count / rate


def reading_weight(text: str, context: str = "") -> int:
    """:func:`reading_seconds` as the number of Latin characters read in that time (rounded
    up): ``len(text)`` for English, about four times the characters for Japanese."""
    return math.ceil(reading_seconds(text, context) * READING_CHARS_PER_SECOND)
