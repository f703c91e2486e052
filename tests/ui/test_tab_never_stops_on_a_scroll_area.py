"""Tab never stops on a scroll area that shows no focus frame.

The filmstrip's scroll area, the inspector's and the takes row each took a Tab press and
drew nothing, so a keyboard user lost track of the focus. The filmstrip and the takes row
take no focus now (the tree picks turns; Tab reaches each tile's controls, and the row
scrolls to the tile focused), and Tab reaching the inspector goes on to its first field.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from .conftest import fake_engine_window

STEPS = 150
TIMEOUT_MS = 60_000


def _walk(window, start: QWidget, qtbot, key: Qt.Key) -> list[QWidget]:  # type: ignore[no-untyped-def]
    """The widgets ``key`` focuses from ``start`` until it is back there."""
    seen: list[QWidget] = []
    for _ in range(STEPS):
        focus = QApplication.focusWidget()
        assert focus is not None
        qtbot.keyClick(focus, key)
        now = QApplication.focusWidget()
        assert now is not None
        if now is start:
            return seen
        seen.append(now)
    raise AssertionError(f"{key.name} never came back to the tree")


def _three_takes_two_in_sight(make_window, sample_project: Path, settings, registry, qtbot):  # type: ignore[no-untyped-def]
    """A window on the first turn with three takes, two tiles in sight (the third scrolled out of it)."""
    window, _script = fake_engine_window(make_window, sample_project, settings, registry)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    ws.select(tree.child_ids(tree.root_id)[0], center=False)
    for _ in range(3):
        window.actions_.reroll.trigger()
        qtbot.waitUntil(lambda: not session.active_jobs(), timeout=TIMEOUT_MS)
    takes = ws.inspector.takes
    takes.per_view.setCurrentText("2")
    qtbot.waitUntil(lambda: len(takes.tiles) == 3 and all(t.isVisibleTo(window) for t in takes.tiles))
    return window


def test_tab_round_the_window_skips_the_frameless_scroll_areas(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                               settings, registry) -> None:
    window = _three_takes_two_in_sight(make_window, sample_project, settings, registry, qtbot)
    ws = window.workspace
    takes = ws.inspector.takes
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    frameless = {"filmstrip": ws.episode.scroll_area, "inspector": ws.inspector, "takes row": takes.scroll_area}

    forward = _walk(window, ws.view, qtbot, Qt.Key.Key_Tab)
    stops = [name for name, area in frameless.items() if area in forward]
    assert not stops, f"Tab stopped on {stops}"
    inside = [w for w in forward if ws.inspector.isAncestorOf(w)]
    assert inside and inside[0] is ws.inspector.bookmark, "Tab enters the inspector at its first field"
    assert all(any(tile.isAncestorOf(w) for w in forward) for tile in takes.tiles), "every tile is reached"

    backward = _walk(window, ws.view, qtbot, Qt.Key.Key_Backtab)
    stops = [name for name, area in frameless.items() if area in backward]
    assert not stops, f"Shift+Tab stopped on {stops}"


def test_tab_to_a_tile_out_of_sight_scrolls_the_row_to_it(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                          settings, registry) -> None:
    window = _three_takes_two_in_sight(make_window, sample_project, settings, registry, qtbot)
    ws = window.workspace
    takes = ws.inspector.takes
    bar = takes.scroll_area.horizontalScrollBar()
    last = takes.tiles[-1]
    viewport = takes.scroll_area.viewport()

    def first_two_in_sight() -> bool:
        bar.setValue(0)  # once the row is laid out for two tiles in sight, the last is out of it
        return last.mapTo(viewport, last.rect().topLeft()).x() >= viewport.width()

    qtbot.waitUntil(first_two_in_sight)
    takes.tiles[1].player.slider.setFocus(Qt.FocusReason.TabFocusReason)
    for _ in range(4):  # on through the second tile's controls to the last tile's first
        focus = QApplication.focusWidget()
        assert focus is not None
        qtbot.keyClick(focus, Qt.Key.Key_Tab)
        if last.isAncestorOf(QApplication.focusWidget()):
            break
    focus = QApplication.focusWidget()
    assert focus is not None and last.isAncestorOf(focus), focus
    left = last.mapTo(viewport, last.rect().topLeft()).x()
    assert left >= 0 and left + last.width() <= viewport.width(), "the focused tile is in sight"
