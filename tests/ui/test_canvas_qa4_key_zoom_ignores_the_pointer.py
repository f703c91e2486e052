"""A zoom key with the selected card out of view zooms around the view's centre even while the
pointer rests over the canvas (QA: it zoomed around the pointer, the view's mouse anchor, so
the part being looked at slid away; seen after a test that hovered a card)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QCursor

from tests.ui.keys import press_story_key

from .test_canvas_qa3_zoom_keys_keep_the_selected_card import look_far_from_the_selected_root


def test_a_zoom_key_zooms_around_the_centre_with_the_pointer_over_a_corner(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = look_far_from_the_selected_root(window)
    # the pointer rests over the canvas's top left corner (as a window opened under it
    # leaves it: over the view, with no move seen by the view yet)
    QCursor.setPos(ws.view.viewport().mapToGlobal(QPoint(40, 30)))
    ws.view.setAttribute(Qt.WidgetAttribute.WA_UnderMouse, True)
    centre = ws.view.visible_scene_rect().center()
    press_story_key(window, qtbot, Qt.Key.Key_Minus)
    assert ws.view.zoom == pytest.approx(1 / 1.2)
    drift = ws.view.visible_scene_rect().center() - centre
    assert abs(drift.x()) <= 2 and abs(drift.y()) <= 2, f"the view's centre moved by {drift}"
