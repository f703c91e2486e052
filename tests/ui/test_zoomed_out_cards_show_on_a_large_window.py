"""Zoomed out just short of the overview on a full-HD window (QA: past about 0.115 the canvas
showed the edges and no cards where none had been made yet, neither cards nor the map of
coloured cells, since the scene took the view's own request for a stale one and made none)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF

from studio.ui.canvas.geometry import CARD_H, CARD_W, OVERVIEW_SCALE


def _long_story(folder: Path) -> Path:
    """A project of 60 turns in one branch and two alternatives of 30 turns each."""
    from studio.composition import create_project
    from studio.storage.demo_import import import_demo

    lines = [f"Character: Qiqi; Motion: walk; Background: day town. Step {n}" for n in range(60)]
    for after in (10, 25):
        lines.append(f"## branch after {after}")
        lines += [f"Character: Yuzu; Motion: run; Background: day park. Side {after}-{n}" for n in range(30)]
    demo = folder / "long.txt"
    demo.write_text("\n".join(lines) + "\n", encoding="utf-8")
    project = create_project(folder / "long.kamishibai", name="Long")
    import_demo(project, demo)
    path = project.path
    project.close()
    return path


def test_every_card_in_view_is_drawn_zoomed_out_on_a_large_window(make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(_long_story(tmp_path))
    window.resize(1920, 1080)
    qtbot.wait(300)  # the project has opened at its readable zoom: zoom out from there
    view, scene = window.workspace.view, window.workspace.scene
    assert view.viewport().width() > 1000
    view.set_zoom(OVERVIEW_SCALE * 1.05)  # cards still on, each about 21 pixels wide
    view.centerOn(scene.tree_rect().center())
    qtbot.wait(50)
    assert view.zoom == OVERVIEW_SCALE * 1.05 and not scene.overview_on
    shown = view.visible_scene_rect()
    in_view = {n for n, c in scene.cells.items() if shown.intersects(QRectF(c.x, c.y, CARD_W, CARD_H))}
    assert len(in_view) > 60
    assert in_view <= set(scene.cards), f"{len(in_view - set(scene.cards))} cards in view were never made"
