"""The state tokens the model writes after a turn, decoded under their grammar.

After ``<ML>`` the model writes ``<Strength_m></ML><SC><Strength_s></SC><ET><Strength_e>
</ET><ST><Strength_t></ST>``. The release samples up to 200 free tokens, splits the text on
spaces and, when that fails, uses motion level 0, which its decoder maps to the largest
motion. Here each of the four values is the most likely token among the valid ones (a
motion level is 1..5, a delta -5..5), the tags between them are fixed, and a warning says
when the model's overall favourite was not a valid value. Plain Python: the model is a
callable from the tokens fed so far to the next token's scores.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, SupportsFloat

from studio.core.state import DELTA_MAX, DELTA_MIN, MOTION_LEVEL_MAX, MOTION_LEVEL_MIN
from studio.engines.animegamer.tokens import TokenIds, TurnState


@dataclass(frozen=True, slots=True)
class Slot:
    """One value to choose: its name, the allowed values, the fixed tokens after it."""

    name: str
    values: tuple[int, ...]
    then: tuple[str, ...]
    """Attribute names of :class:`TokenIds` fed after the value (the closing and next opening tag)."""


SLOTS: tuple[Slot, ...] = (
    Slot("motion level", tuple(range(MOTION_LEVEL_MIN, MOTION_LEVEL_MAX + 1)), ("end_ml", "sc")),
    Slot("social", tuple(range(DELTA_MIN, DELTA_MAX + 1)), ("end_sc", "et")),
    Slot("entertainment", tuple(range(DELTA_MIN, DELTA_MAX + 1)), ("end_et", "st")),
    Slot("stamina", tuple(range(DELTA_MIN, DELTA_MAX + 1)), ()),
)
"""The grammar after ``<ML>``, in the order the model writes it."""

class Scores(Protocol):
    """Scores over the vocabulary (a list, or a 1-D tensor)."""

    def __getitem__(self, token: int, /) -> SupportsFloat: ...

    def __len__(self) -> int: ...


NextScores = Callable[[list[int]], Scores]
"""Given the tokens to feed (empty on the first call: the prompt is already in), the scores
of the next token over the whole vocabulary."""


@dataclass(frozen=True, slots=True)
class DecodedState:
    state: TurnState
    tokens: tuple[int, ...]
    """Every token fed after ``<ML>`` (values and fixed tags), for the history of later turns."""
    warnings: tuple[str, ...] = ()


def _best(scores: Scores, candidates: Sequence[int]) -> int:
    return max(candidates, key=lambda token: float(scores[token]))


def _argmax(scores: Scores) -> int:
    best, best_score = 0, float("-inf")
    for index in range(len(scores)):
        if float(scores[index]) > best_score:
            best, best_score = index, float(scores[index])
    return best


def decode_state(ids: TokenIds, next_scores: NextScores, *, describe: Callable[[int], str] = str,
                 favourite: Callable[[Scores], int] = _argmax) -> DecodedState:
    """Greedy decoding restricted to :data:`SLOTS`. ``describe`` names a token for warnings;
    ``favourite`` finds the overall argmax (a faster one can be passed for tensors)."""
    feed: list[int] = []
    fed: list[int] = []
    values: list[int] = []
    warnings: list[str] = []
    for slot in SLOTS:
        scores = next_scores(feed)
        candidates = [ids.strength(v) for v in slot.values]
        chosen = _best(scores, candidates)
        top = favourite(scores)
        if top != chosen:
            warnings.append(f"The model's likeliest token for the {slot.name} was {describe(top)}, not a valid "
                            f"value; used {describe(chosen)}, the likeliest valid one.")
        value = ids.strength_value(chosen)
        assert value is not None  # chosen is one of the candidates
        values.append(value)
        feed = [chosen, *(getattr(ids, name) for name in slot.then)]
        fed.extend(feed)
    motion, social, entertainment, stamina = values
    return DecodedState(TurnState(motion, social, entertainment, stamina), tuple(fed), tuple(warnings))
