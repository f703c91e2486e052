"""The LM's input: a branch written as one token sequence (no torch here).

::

    <bos>
    <turn> instruction <ML> <Lk> <SC> <d..> <ET> <d..> <ST> <d..> <r> x R     (each earlier turn)
    <now> <state> <v..> <v..> <v..> <instr> instruction
    <ML> <Lk> <SC> <d..> <ET> <d..> <ST> <d..>                                  (predicted, in order)
    <q> x R                                                                       (one bidirectional block)

An earlier turn's ``<r>`` slots carry its representation (projected into the LM) when the
turn was made in the mini space; the outputs at the ``<q>`` slots are the next clip's
representation. The state before the turn is written explicitly (stamina, social,
entertainment), so rules that depend on it can be read off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from studio.engines.mini.tokenizer import (
    BOS,
    INSTR,
    ML,
    NOW,
    PAD,
    QUERY,
    REP,
    STATE,
    STATE_FIELDS,
    TURN,
    Vocab,
)

if TYPE_CHECKING:
    import numpy as np

FIELD_INDEX = {"stamina": 0, "social": 1, "entertainment": 2}
"""Where each stat sits in a (stamina, social, entertainment) tuple."""


@dataclass(frozen=True)
class PastTurn:
    """An earlier turn as the LM reads it. ``deltas`` are (stamina, social, entertainment)."""

    text: str
    level: int
    deltas: tuple[int, int, int]
    representation: np.ndarray | None = None


@dataclass
class LMInput:
    """One sequence: token ids, where earlier representations go, where the values are
    predicted and where the query block starts."""

    ids: list[int]
    rep_ranges: list[tuple[int, int]] = field(default_factory=list)
    """(first position, history index) of each earlier representation's run of ``<r>`` slots."""
    value_positions: list[int] = field(default_factory=list)
    """Positions of ``<ML>``, ``<SC>``, ``<ET>``, ``<ST>``: their outputs predict the next token."""
    query_start: int = 0
    history: list[np.ndarray] = field(default_factory=list)
    """The representations the ``<r>`` slots read, by history index."""


def _values(vocab: Vocab, level: int | None, deltas: Sequence[int] | None) -> list[int]:
    """``<ML> <Lk> <SC> <d> <ET> <d> <ST> <d>``; unknown values are written as padding."""
    pad = vocab.id(PAD)
    out = [vocab.id(ML), vocab.level_id(level) if level is not None else pad]
    for name, marker in STATE_FIELDS:
        out.append(vocab.id(marker))
        out.append(vocab.delta_id(deltas[FIELD_INDEX[name]]) if deltas is not None else pad)
    return out


def build_input(vocab: Vocab, *, history: Sequence[PastTurn], state: Sequence[int], text: str, tokens: int,
                max_instruction: int, level: int | None = None, deltas: Sequence[int] | None = None,
                encode: Callable[[str, int], list[int]] | None = None) -> LMInput:
    """The sequence for one turn; ``level``/``deltas`` are the targets (None at inference:
    the value slots hold padding until they are predicted). ``state`` is (stamina, social,
    entertainment) before the turn. ``encode`` may cache the tokenizer's work."""
    encode = encode or vocab.encode
    ids = [vocab.id(BOS)]
    rep_ranges: list[tuple[int, int]] = []
    reps: list[np.ndarray] = []
    for past in history:
        ids.append(vocab.id(TURN))
        ids += encode(past.text, max_instruction)
        ids += _values(vocab, past.level, past.deltas)
        if past.representation is not None:
            rep_ranges.append((len(ids), len(reps)))
            reps.append(past.representation)
            ids += [vocab.id(REP)] * tokens
    ids += [vocab.id(NOW), vocab.id(STATE), *(vocab.value_id(v) for v in state), vocab.id(INSTR)]
    ids += encode(text, max_instruction)
    start = len(ids)
    ids += _values(vocab, level, deltas)
    value_positions = [start, start + 2, start + 4, start + 6]
    query_start = len(ids)
    ids += [vocab.id(QUERY)] * tokens
    return LMInput(ids=ids, rep_ranges=rep_ranges, value_positions=value_positions, query_start=query_start,
                   history=reps)


def value_order() -> tuple[str, ...]:
    """The stats in the order the LM predicts them (after the motion level)."""
    return tuple(name for name, _ in STATE_FIELDS)
