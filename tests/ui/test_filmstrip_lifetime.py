"""A poster that arrives after its filmstrip was deleted (File > New project closes the
old workspace while posters are still loading) must not touch the dead widget."""

from __future__ import annotations

import gc

import shiboken6
from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QWidget

from studio.ui.episode.filmstrip import Filmstrip


class _Posters(QObject):
    """The part of the poster cache a filmstrip listens to."""

    ready = Signal(str)


def test_poster_ready_after_the_filmstrip_was_deleted_is_ignored(qapp, qtbot) -> None:  # type: ignore[no-untyped-def]
    posters = _Posters()
    holder = QWidget()
    strip = Filmstrip(posters, lambda rel: rel, holder)  # type: ignore[arg-type]  # duck-typed cache
    posters.ready.emit("media/a.png")  # alive: repaints
    holder.deleteLater()  # the workspace goes, and its filmstrip with it
    qapp.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    assert not shiboken6.isValid(strip)
    del holder, strip
    gc.collect()
    with qtbot.capture_exceptions() as raised:
        posters.ready.emit("media/b.png")
    assert not raised, [str(error[1]) for error in raised]
