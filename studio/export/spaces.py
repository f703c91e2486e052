"""The white space of a caption's or a sheet's text, collapsed as it is shown.

Text is shown single-spaced: each run of spaces, tabs and line breaks becomes one space.
Japanese text separates sentences with the full-width space (U+3000, as wide as a kana),
which the same collapse made a narrow space, so a narration typed ``手を振る。　そして`` was
subtitled and drawn ``手を振る。 そして``. A run of full-width spaces alone now stays one
full-width space; a line of captions, subtitles or sheets never starts with one
(:data:`studio.export.drawing.NO_LINE_START`), and a line break after one takes it away as it
takes a space.
"""

from __future__ import annotations

import re

IDEOGRAPHIC_SPACE = "\u3000"

_RUN = re.compile(r"\s+")


def _one(match: re.Match[str]) -> str:
    return IDEOGRAPHIC_SPACE if set(match.group()) == {IDEOGRAPHIC_SPACE} else " "


def single_spaced(text: str) -> str:
    """``text`` with no white space at its ends and each run of it inside one space: a
    full-width one where the run is only full-width spaces, else a narrow one."""
    return _RUN.sub(_one, text.strip())
