"""Field names an instruction writes that are none of ours (``Backgroud:``, ``Mood:``).

The parser keeps such a field as an extra one (or reads a lone one as free text), so a turn
made from it went without the field meant, with nothing said: ``play`` drew the previous
place for a misspelled Background. One reader, so that ``import-demo``, ``play`` and the
window say the same."""

from __future__ import annotations

import difflib
import re

from studio.core.instruction import KEY_ALIASES, parse_instruction
from studio.core.speech import is_script_line
from studio.core.text import ZERO_WIDTH

FIELD_NAMES = "Character, Motion, Background, Time, Camera and Adverb"
"""The fields, as messages list them."""

_INVISIBLE = "".join(sorted(ZERO_WIDTH))
_NAME_LIKE_RE = re.compile(rf"^\s*((?:[^\W\d_]|[{_INVISIBLE}])+(?:[ ]+(?:[^\W\d_]|[{_INVISIBLE}])+){{0,2}})\s*[:：]")
"""A part of a line that starts as a field does: one to three words of letters (invisible
characters among them), then a colon."""

_CLOSE = 0.75
"""How alike a lone ``Word:`` must be to a field name to be read as a misspelling of it
("Motoin:"), rather than a sentence with a colon ("Qiqi says: hello")."""


def unknown_field_names(text: str) -> list[str]:
    """The field names ``text`` writes that are none of ours, as written; a speaker's name
    before a quoted line is none ('Qiqi: "Let's go!"' is a line of a script, not a field)."""
    unknown: list[str] = []
    for part in re.split(r"[;；]", text):
        match = _NAME_LIKE_RE.match(part)
        if (match and " ".join(match.group(1).lower().split()) not in KEY_ALIASES
                and not is_script_line(part[match.end():])):
            unknown.append(match.group(1).strip())
    return unknown


def misspelled_field_names(text: str) -> list[str]:
    """The field names ``text`` gets wrong: where the text writes fields (a known one, or an
    unknown one the parser kept as a field), every unknown one the parser kept as a field;
    else (and for a name the parser read as free text) those that read as a field name
    misspelled ("Motoin: dance"), not a sentence with a colon ("Qiqi says: hello"). Empty: none."""
    unknown = unknown_field_names(text)
    if not unknown:
        return []
    parsed = parse_instruction(text)
    writes_fields = bool(parsed.extra) or any(
        (match := _NAME_LIKE_RE.match(part)) and " ".join(match.group(1).lower().split()) in KEY_ALIASES
        for part in re.split(r"[;；]", text))
    kept = {" ".join(key.lower().split()) for key, _value in parsed.extra} if writes_fields else set()
    names = [name for name in KEY_ALIASES if name.isascii()]
    return [name for name in unknown if " ".join(name.lower().split()) in kept
            or difflib.get_close_matches(" ".join(name.lower().split()), names, n=1, cutoff=_CLOSE)]


def unknown_field_message(names: list[str], text: str) -> str:
    """What is said of ``names``, field names ``text`` writes that are none of ours."""
    shown = ", ".join(repr(name + ":") for name in names)
    return (f"unknown field name{'s' if len(names) > 1 else ''} {shown} in {text[:60]!r}: "
            f"the fields are {FIELD_NAMES}")
