"""The part the compare windows share: one clock driving several players, with Space to play.

Compare takes and Compare branches each play several columns' players from one clock. Both
take Space the same way (it plays and pauses unless a focused widget used it), both wait for
every column's frame to be decoded before the clock moves on (so that the columns play the
same moment), and both stop the clock when they close.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtGui import QCloseEvent, QKeyEvent, QShowEvent
from PySide6.QtWidgets import QDialog

from studio.ui.player import Player, is_play_key
from studio.ui.window_state import fit_on_screen


class HasPlayer(Protocol):
    """A column of a compare window: it shows its part of the story in a player."""

    @property
    def player(self) -> Player: ...


class SharedClockWindow(QDialog):
    """A window whose :attr:`columns` play from one clock. A subclass says how the clock
    starts, stops and moves on a tick (:meth:`play`, :meth:`pause`, :meth:`advance`) and
    starts its timer with :meth:`tick` as the timeout."""

    columns: Sequence[HasPlayer]

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        fit_on_screen(self)  # three takes side by side are wider than a small screen

    @property
    def playing(self) -> bool:
        raise NotImplementedError

    def play(self) -> None:
        raise NotImplementedError

    def pause(self) -> None:
        raise NotImplementedError

    def advance(self) -> None:
        """Move the clock on by one tick (every column's frame for the moment shown is ready)."""
        raise NotImplementedError

    def toggle(self) -> None:
        self.pause() if self.playing else self.play()

    @property
    def frames_ready(self) -> bool:
        """Whether every column has the frame for the clock's moment (a turn without a clip, or
        a clip that can't be read, shows its stand-in at once: it holds no other column back)."""
        return all(column.player.frames_ready for column in self.columns)

    def tick(self) -> None:
        """The clock's timer fired: move on, unless a column's clip is still decoding. The clock
        waits for it, so that every column plays the same moment (the others played on while it
        said "decoding…", and its start was lost)."""
        if self.frames_ready:
            self.advance()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        """Space plays and pauses unless a focused widget took it: a focused button is pressed
        by it (a window-wide shortcut toggled the playback instead), a focused picker opens,
        and on the slider, after a scrub, it plays."""
        if is_play_key(event):
            self.toggle()
            event.accept()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self.pause()
        super().closeEvent(event)

    def done(self, result: int) -> None:
        """Esc closes the window (and stops the clock) as the close button does."""
        self.pause()
        super().done(result)
