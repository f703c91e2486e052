"""A stale take's thumbnail in the filmstrip was only tinted a shade darker: it read as done,
and the strip had no tooltip to say otherwise, nor who acts in a turn (its label gives the
action only). A thumbnail showing a picture now says "stale" (or "queued", "generating…")
over it, and hovering a turn says which turn it is, who acts where, and what its status means."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent, QImage
from PySide6.QtWidgets import QApplication, QToolTip

from studio.core.commands import EditInstruction
from studio.ui.episode.filmstrip import MARK_H, Filmstrip
from tests.ui.conftest import generate_first_branch


def _mark_darkness(strip: Filmstrip, index: int) -> float:
    """The mean brightness (0..255), as painted, of the padding right of the text in turn
    ``index``'s status mark (at the thumbnail's top right)."""
    image = strip.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    ratio = image.devicePixelRatio()
    rect = strip.thumb_rect(index)
    total = count = 0
    for x in range(int(rect.right() - 6), int(rect.right() - 4)):
        for y in range(int(rect.top() + 2 + MARK_H / 2 - 3), int(rect.top() + 2 + MARK_H / 2 + 3)):
            color = image.pixelColor(int(x * ratio), int(y * ratio))
            total += (color.red() + color.green() + color.blue()) / 3
            count += 1
    return total / count


def test_stale_thumbnails_say_so_and_the_strip_names_each_turn(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                               qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    leaf = generate_first_branch(window, qtbot)
    path = [node.id for node in ws.tree.path_to(leaf)]
    ws.select(path[3], center=False)
    strip = ws.episode.strip
    qtbot.waitUntil(lambda: strip.summaries and all(s.poster_path for s in strip.summaries[1:]), timeout=10_000)
    qtbot.waitUntil(lambda: all(strip.posters.get(strip.resolve(s.poster_path)) is not None
                                for s in strip.summaries[1:]), timeout=10_000)
    # done turns carry no mark (the strip hears of a finished take a moment after its poster)
    qtbot.waitUntil(lambda: [strip.status_mark(i) for i in range(len(path))] == [""] * len(path), timeout=10_000)
    done_brightness = _mark_darkness(strip, 3)

    ws.apply(EditInstruction(path[1], "Character: Qiqi; Motion: run; Background: town"))
    window.session.settle()
    qtbot.waitUntil(lambda: strip.status_mark(3) == "stale", timeout=10_000)
    assert [strip.status_mark(i) for i in range(1, len(path))] == ["stale"] * (len(path) - 1)
    assert done_brightness > 40
    assert _mark_darkness(strip, 3) < 0.45 * done_brightness, "the mark is painted over the picture"

    tip = strip.tooltip_text(3)
    actor = ws.tree.acting_character(path[3])
    assert f"Turn 3 · {actor}" in tip and "Stale:" in tip and "Re-roll" in tip
    assert strip.tooltip_text(0).startswith("<p") and "Start" in strip.tooltip_text(0)

    # a real hover: the tooltip shows over the turn's thumbnail
    centre = strip.thumb_rect(2).center().toPoint()
    event = QHelpEvent(QEvent.Type.ToolTip, centre, strip.mapToGlobal(centre))
    QApplication.sendEvent(strip, event)
    qtbot.waitUntil(lambda: QToolTip.isVisible(), timeout=3_000)
    assert "Turn 2 · " in QToolTip.text() and "Stale:" in QToolTip.text()

    window.actions_.undo.trigger()
    window.session.settle()
    qtbot.waitUntil(lambda: strip.status_mark(3) == "", timeout=10_000)
    assert "Stale:" not in strip.tooltip_text(3)
