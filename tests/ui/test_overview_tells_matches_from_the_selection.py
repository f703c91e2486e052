"""Find's matches on the zoomed-out map (QA: far zoomed out, every match of a search was marked
in the selection's colour, so the map showed several "selected" turns and not which one was;
the cards, nearer, frame matches in the search colour and the selection in its own)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor

from studio.ui import palette
from studio.ui.canvas.geometry import CARD_H, CARD_W, OVERVIEW_SCALE


def _colour_at(view, node_id: str) -> QColor:  # type: ignore[no-untyped-def]
    """The colour the view shows at the middle of a turn's cell."""
    cell = view.tree_scene.cells[node_id]
    point = view.mapFromScene(QPointF(cell.x + CARD_W / 2, cell.y + CARD_H / 2))
    return view.viewport().grab().toImage().pixelColor(point)


def test_the_map_marks_matches_in_the_search_colour(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    window.actions_.find.trigger()
    ws.search.edit.setText("Qiqi")
    matches = ws.matches
    assert len(matches) >= 3
    selected = matches[1]
    ws.select(selected, center=False)
    ws.view.set_zoom(OVERVIEW_SCALE / 2)
    ws.view.centerOn(ws.scene.tree_rect().center())
    assert ws.scene.overview_on
    assert _colour_at(ws.view, selected) == palette.CARD_SELECTED
    for other in (matches[0], matches[2]):
        assert _colour_at(ws.view, other) == palette.SEARCH_HIT
