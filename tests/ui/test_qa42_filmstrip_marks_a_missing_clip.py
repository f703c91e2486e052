"""A turn whose chosen clip file was deleted by hand: its card said "clip missing" but its
filmstrip frame showed the poster as if all were well. The frame now carries the same mark,
framed in the failed colour, and its tooltip says what to do (re-roll it, or put the file back)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor

from studio.ui import palette
from studio.ui.clip_presence import CLIP_MISSING_PILL
from studio.ui.node_summary import CardStatus

from .conftest import generate_first_branch


def test_the_frame_of_a_turn_whose_clip_is_gone_says_so(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    leaf = generate_first_branch(window, qtbot)
    turns = [n.id for n in session.project.tree.path_to(leaf)]
    gone = turns[2]
    poster = str(session.project.resolve(session.project.tree.selected_take(gone).poster_path))
    session.project.resolve(session.project.tree.selected_take(gone).clip_path).unlink()

    ws.select(gone, center=False)
    strip = ws.episode.strip
    qtbot.waitUntil(lambda: strip.summaries[2].clip_missing, timeout=5_000)
    qtbot.waitUntil(lambda: ws.scene.posters.get(poster) is not None, timeout=10_000)
    assert strip.status_mark(2) == CLIP_MISSING_PILL
    assert strip.status_mark(1) == "", "a turn with its clip carries no mark"
    tip = strip.tooltip_text(2)
    assert "Clip missing" in tip and "Re-roll the turn (R)" in tip and "put the file back" in tip
    assert "clip is missing" in strip.accessibleDescription()

    picture = strip.grab().toImage()  # the frame is drawn in the failed colour around the picture
    ratio = picture.devicePixelRatio()
    rect = strip.thumb_rect(2)
    x, y = round((rect.left() + 3.5) * ratio), round(rect.center().y() * ratio)
    failed = palette.STATUS_COLORS[CardStatus.FAILED]
    edge = QColor(picture.pixel(x, y))
    assert abs(edge.red() - failed.red()) + abs(edge.green() - failed.green()) + abs(edge.blue() - failed.blue()) < 40
    assert strip.placeholder_text(2) == f"{CLIP_MISSING_PILL}\npress R to re-roll"  # said where no poster shows
