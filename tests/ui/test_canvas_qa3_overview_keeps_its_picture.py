"""The zoomed-out overview of a large tree while the selection and Find's matches change (QA:
every arrow key, and every letter typed into Find, threw away the overview's picture of the
whole tree and painted all its cells again, a lag that grows with the tree)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, Qt

from studio.core.commands import AddTurn
from studio.ui import palette
from studio.ui.canvas.geometry import CARD_H, CARD_W
from studio.ui.canvas.layers import OverviewLayer
from tests.ui.keys import press_story_key

DEPTH = 120
ALTERNATIVES = 60


def _wide_and_deep_project(tmp_path: Path) -> Path:
    """A branch of DEPTH turns whose first turn has ALTERNATIVES alternatives after it."""
    from studio.composition import create_project

    project = create_project(tmp_path / "large.kamishibai", name="Large")
    parent = project.tree.root_id
    for index in range(DEPTH):
        node_id = f"deep{index:04d}"
        project.apply(AddTurn(parent, f"Character: Qiqi; Motion: walk step {index}; Background: day town.", node_id))
        parent = node_id
    for index in range(ALTERNATIVES):
        project.apply(AddTurn(project.tree.root_id, f"Character: Qiqi; Motion: jump take {index}; "
                                                    "Background: night town.", f"alt{index:04d}"))
    path = project.path
    project.close()
    return path


def _pixel_at_cell(ws, node_id: str):  # type: ignore[no-untyped-def]
    cell = ws.scene.cells[node_id]
    image = ws.view.viewport().grab().toImage()
    point = ws.view.mapFromScene(QPointF(cell.x + CARD_W / 2, cell.y + CARD_H / 2))
    return image.pixelColor(point)


def test_arrow_keys_and_find_keep_the_overview_picture(make_window, tmp_path: Path, qtbot,  # type: ignore[no-untyped-def]
                                                       monkeypatch) -> None:
    builds: list[int] = []
    build = OverviewLayer._build_image

    def counted(layer: OverviewLayer):  # type: ignore[no-untyped-def]
        builds.append(1)
        return build(layer)

    monkeypatch.setattr(OverviewLayer, "_build_image", counted)
    window = make_window(_wide_and_deep_project(tmp_path))
    ws = window.workspace
    ws.select("deep0060")
    window.actions_.fit.trigger()
    assert ws.scene.overview_on
    ws.view.viewport().grab()
    assert len(builds) == 1  # the picture of the whole tree (too many cells to fill one by one)

    assert _pixel_at_cell(ws, "deep0060") == palette.CARD_SELECTED
    for key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_Right, Qt.Key.Key_Down):
        press_story_key(window, qtbot, key)
        ws.view.viewport().grab()
    assert ws.current_id == "alt0000"
    assert _pixel_at_cell(ws, "alt0000") == palette.CARD_SELECTED  # the mark follows the selection
    assert _pixel_at_cell(ws, "deep0060") != palette.CARD_SELECTED  # and leaves the turn it was on

    window.actions_.find.trigger()
    qtbot.keyClicks(ws.search.edit, "take 5")
    ws.view.viewport().grab()
    assert ws.current_id == "alt0005"
    assert _pixel_at_cell(ws, "alt0050") == palette.SEARCH_HIT  # a match further down is marked
    assert len(builds) == 1  # none of it painted the tree's picture again
    assert window.last_error is None


def test_a_new_status_still_repaints_the_overview_picture(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(_wide_and_deep_project(tmp_path))
    ws = window.workspace
    window.actions_.fit.trigger()
    ws.view.viewport().grab()
    layer = ws.scene.overview
    assert layer._image is not None
    ws.scene.rebuild()  # a structural change: the picture is made again at the next paint
    assert layer._image is None
