"""How an export names the turns whose chosen take is out of date, each with its reason.

The reasons come from :func:`studio.core.stale_reasons.stale_words` ("its instruction was
edited", "an earlier turn changed", "the start state changed"). Turns that share one reason
are named together, so that a branch of twenty stale turns still reads as one short sentence;
the export's note and the window's export dialog both say it this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from studio.core.stale_reasons import StaleReason

UNRECORDED_WORDS = StaleReason.EARLIER_TURN_CHANGED.words
"""The reason said for a stale turn whose reason is not known (as the reasons themselves say
of a take out of date for a reason it did not record)."""


@dataclass(frozen=True)
class StaleGroup:
    """Stale turns (by number) that share one reason (:func:`stale_words`' clause)."""

    why: str
    turns: tuple[int, ...]


def stale_groups(turns: Iterable[tuple[int, str]]) -> tuple[StaleGroup, ...]:
    """``turns`` ((number, reason) of each stale turn) grouped by reason, the groups in the
    order of their first turn; an empty reason counts as :data:`UNRECORDED_WORDS`."""
    grouped: dict[str, list[int]] = {}
    for number, why in sorted(turns):
        grouped.setdefault(why or UNRECORDED_WORDS, []).append(number)
    return tuple(StaleGroup(why, tuple(numbers)) for why, numbers in grouped.items())


def stale_sentence(groups: Sequence[StaleGroup], turn_list: Callable[[Sequence[int]], str]) -> str:
    """The stale turns and why, as a clause with no capital nor full stop ("" for none):
    'turns 3, 4 use a stale take (made before an earlier turn changed)', or with several
    reasons '4 turns use a stale take, made before its instruction was edited (turn 2) or an
    earlier turn changed (turns 3, 4, 5)'. ``turn_list`` writes a list of turn numbers."""
    if not groups:
        return ""
    count = sum(len(group.turns) for group in groups)
    if len(groups) == 1:
        numbers = groups[0].turns
        many = len(numbers) > 1
        return (f"turn{'s' if many else ''} {turn_list(numbers)} use{'' if many else 's'} a stale take "
                f"(made before {groups[0].why})")
    parts = [f"{group.why} (turn{'s' if len(group.turns) > 1 else ''} {turn_list(group.turns)})" for group in groups]
    reasons = f"{', '.join(parts[:-1])} or {parts[-1]}"
    return f"{count} turns use a stale take, made before {reasons}"
