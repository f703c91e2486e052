"""A take chosen and the turns it made stale re-rolled from it, as one undo step.

"Use and re-roll" is one action of the author's: the take chosen lands at once, the later
turns' takes land one by one as their jobs end. The choice opens the re-roll's undo group
(:class:`~studio.core.document.UndoGroup`), so each take that lands joins the choice's undo
entry: one Undo gives the turn its former take back and takes every re-rolled take away,
instead of leaving the author halfway (the new take chosen, the turns below stale).
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.core.document import UndoGroup


@dataclass(frozen=True)
class ChoiceRerollGroup(UndoGroup):
    """The undo group of a take chosen and the re-roll of the turns below it.

    ``chosen`` names the take as the Edit menu says it ("take 2 of turn 3"). The group's
    first change is the choice, so a count of ``n`` changes holds ``n - 1`` re-rolled turns.
    """

    chosen: str = "the take"

    def label(self, base: str, count: int) -> str:
        """E.g. "Use take 2 of turn 3 and re-roll 2 turns", then "... (1 of 2 turns)" as
        the first take lands; ``base`` (the change's own label) is not used: every entry
        of the group says the whole action."""
        rerolled = max(count - 1, 0)
        total = max(self.total, rerolled)
        action = f"Use {self.chosen} and re-roll"
        if 0 < rerolled < total:
            return f"{action} ({rerolled} of {total} {self.unit}s)"
        return f"{action} {total} {self.unit}{'s' if total != 1 else ''}"


class ChoiceLabels:
    """What each choice's re-roll (by undo group key) followed, for the runners that commit
    its takes. Kept for this session only, as the undo history is."""

    def __init__(self) -> None:
        self._chosen: dict[str, str] = {}

    def remember(self, key: str, chosen: str) -> None:
        self._chosen[key] = chosen

    def chosen(self, key: str) -> str:
        """The take the re-roll ``key`` followed; "" for a re-roll on its own."""
        return self._chosen.get(key, "")
