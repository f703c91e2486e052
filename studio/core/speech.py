"""Quoted speech in an instruction: the words a character says, told apart from what the turn
shows.

'"Hi Yuzu!" says Aoi' is Aoi's turn: Yuzu is only named in what Aoi says. A script line
('Aoi: "I am home"') is the turn of the name before it. The engines read speech their own
way; the core needs only these two facts, and must not import an engine to get them.
"""

from __future__ import annotations

import re

_QUOTE_PAIRS = (
    ('"', '"'), ("\u201c", "\u201d"), ("\u201e", "\u201c\u201d"), ("\u00ab", "\u00bb"), ("\u300c", "\u300d"),
    ("\u300e", "\u300f"),
)
"""Opening mark and the marks that may close it: straight, English, German, French and
Japanese quotes."""


def _pair_pattern(opening: str, closing: str) -> str:
    inside = re.escape(opening + closing) if opening not in closing else re.escape(closing)
    return f"{re.escape(opening)}[^{inside}\\n]*[{re.escape(closing)}]"


_DOUBLE = "|".join(_pair_pattern(opening, closing) for opening, closing in _QUOTE_PAIRS)
_SINGLE = (r"(?<![^\W_])'[^'\n]*?[^\s']'(?![^\W\d_])"  # 'like this': not the apostrophe of "don't"
           r"|\u2018[^\u2018\n]*?\u2019(?![^\W\d_])")  # ‘like this’: not "Qiqi’s"
QUOTED_RE = re.compile(f"{_DOUBLE}|{_SINGLE}")
"""Words in quotes. A straight single quote opens only after a space or punctuation and closes
only before one, so the apostrophes of "don't" and "Qiqi's" open nothing."""


def _has_words(text: str) -> bool:
    return any(char.isalnum() for char in text)


def outside_quotes(text: str) -> str:
    """``text`` with each quotation replaced by a full stop (a clause break), so that a name
    said in quotes is not taken for someone in the turn. A text that is nothing but quotes
    ('"Qiqi runs in the park"': an instruction quoted as a whole) is returned as it is."""
    if not QUOTED_RE.search(text):
        return text
    rest = QUOTED_RE.sub(" . ", text)
    return rest if _has_words(rest) else text


def is_script_line(value: str) -> bool:
    """Whether ``value`` is one quotation and nothing else, with words in it: the line of a
    script ('Aoi: "I am home"' has the value '"I am home"')."""
    value = value.strip()
    return bool(value) and QUOTED_RE.fullmatch(value) is not None and _has_words(value[1:-1])
