"""The characters a Character field names: one, or several joined ("Qiqi and Yuzu", "美咲とゆず",
"小明和小红", "민수와 지수"). Read by the story's choice of who acts (:mod:`studio.core.tree`) and
by the caption's verb (:mod:`studio.core.sentence`), which agrees with several."""

from __future__ import annotations

import re
from collections.abc import Sequence

from studio.core.state import written_key

_LATIN_JOINER = re.compile(r"\s*,\s*(?:(?:and|&)\s+)?|\s*&\s*|\s+and\s+", re.IGNORECASE)
_WIDE_JOINER = re.compile(r"\s*(?:と|和|跟|与|與|及)\s*")
"""Japanese と and Chinese 和/跟/与 between two names ("美咲とゆず", "小明和小红")."""
_KOREAN_JOINER = re.compile(r"(?<=[\uac00-\ud7a3])(?:와|과|하고|이랑|랑)\s+(?=[\uac00-\ud7a3A-Za-z])"
                            r"|(?<=[A-Za-z\u00c0-\u024f])\s*(?:와|과|하고|이랑|랑)\s*(?=[^\W\d_])")
"""Korean 와/과/하고/랑 after a name, a space before the next ("민수와 지수"); after a Latin name,
spaced or not ("Qiqi와 Yuzu", "Qiqi 와 Yuzu", "Qiqi하고Yuzu")."""


def character_names(field: str, names: Sequence[str] = ()) -> list[str]:
    """The characters a Character field names, in order: one name, or several joined ("Qiqi
    and Yuzu", "Qiqi, Yuzu & Aoi", "美咲とゆず", "小明和小红", "민수와 지수"). A field that is one
    of ``names`` (the cast) as a whole is that name ("Salt and Pepper"); a Japanese or Chinese
    split that leaves a part of one character ("和子") is no split."""
    field = " ".join(field.split())
    if not field:
        return []
    keys = {written_key(name) for name in names if name.strip()}
    if written_key(field) in keys:
        return [field]
    parts = [part for part in _LATIN_JOINER.split(field) if part.strip()]
    out: list[str] = []
    for part in parts:
        out += _wide_split(part, keys)
    return out


def _wide_split(part: str, keys: set[str]) -> list[str]:
    """``part`` split at Korean, Japanese or Chinese joiners when what they join looks like names."""
    if written_key(part) in keys:
        return [part]
    for joiner in (_KOREAN_JOINER, _WIDE_JOINER):
        pieces = [piece.strip() for piece in joiner.split(part)]
        if len(pieces) > 1 and all(len(piece) >= 2 or written_key(piece) in keys for piece in pieces):
            return pieces
    return [part]
