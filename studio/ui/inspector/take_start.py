"""What a take started from: the state its turn started from when it was made (schema 6's
``takes.start_state``), set beside the turn's start now.

A take made before the turn above was edited (another take chosen there, or the story's start
changed) continued from a state the turn no longer starts from: its tile and its column in
Compare say so in words, since "stale" alone does not say what changed."""

from __future__ import annotations

from dataclasses import dataclass

from studio.core.model import Take
from studio.core.state import CharacterState
from studio.ui import palette


def stats_text(state: CharacterState) -> str:
    """``stamina 60 · social 40 · fun 55``."""
    return " · ".join(f"{palette.STAT_LABELS[name].lower()} {value}" for name, value in state.as_dict().items())


@dataclass(frozen=True)
class TakeStart:
    """Where ``take`` started, and whether that is where its turn starts ``now``."""

    take: Take
    now: CharacterState | None

    @property
    def known(self) -> bool:
        """Whether the take's start was kept (takes made before schema 6 have none)."""
        return self.take.start_state is not None

    @property
    def differs(self) -> bool:
        """Whether the take started from another state than its turn's start now."""
        return self.take.start_state is not None and self.now is not None and self.take.start_state != self.now

    @property
    def line(self) -> str:
        """``started from stamina 60 · social 40 · fun 55`` ("" where it was not kept), with the
        acting character's name where each character has a state of their own."""
        start = self.take.start_state
        if start is None:
            return ""
        who = f"{self.take.start_character}'s " if self.take.start_character else ""
        return f"started from {who}{stats_text(start)}"

    @property
    def warning(self) -> str:
        """What a tile says in view where the take started elsewhere ("" where it did not)."""
        return "Started from another state than this turn's start now" if self.differs else ""

    @property
    def tooltip(self) -> str:
        """The whole story: where it started, where the turn starts now, and what to do."""
        if not self.known:
            return "Where this take started was not recorded (it was made by an older version of the studio)."
        said = self.line[0].upper() + self.line[1:] + "."
        if self.differs and self.now is not None:
            return (f"{said}\nThe turn starts from {stats_text(self.now)} now: the turn above was changed since "
                    "this take was made (another take chosen there, or the start edited). Re-roll (R) for a "
                    "take made from the start it has now.")
        return f"{said}\nThe same start as this turn has now."
