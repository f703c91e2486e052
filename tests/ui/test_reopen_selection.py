"""A project reopens where it was left: at the turn selected when it was closed (if that turn
is still there), with the view around it; the app's settings remember it per project."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF

from studio.ui.canvas.geometry import CARD_H, CARD_W
from studio.ui.settings import MAX_PLACES, StudioSettings


def _deepest(tree) -> str:  # type: ignore[no-untyped-def]
    return str(max(tree.nodes, key=lambda n: (tree.depth(n), n)))


def test_reopening_a_project_selects_the_turn_selected_when_it_was_closed(make_window, sample_project: Path,
                                                                           qtbot) -> None:
    window = make_window(sample_project)
    tree = window.session.project.tree
    deep = _deepest(tree)
    assert tree.depth(deep) >= 3
    window.workspace.select(deep)
    assert window.close_project("keep")
    assert window.workspace is None

    assert window.open_project(sample_project), window.last_error
    ws = window.workspace
    assert ws.current_id == deep
    assert ws.inspector.node_id == deep and ws.scene.current_id == deep
    assert deep in ws.branch  # the episode panel shows its branch

    def shown() -> bool:
        cell = ws.view.tree_scene.cells.get(deep)
        return cell is not None and ws.view.visible_scene_rect().intersects(QRectF(cell.x, cell.y, CARD_W, CARD_H))

    qtbot.waitUntil(shown, timeout=5000)  # the view opens around it


def test_a_turn_gone_since_leaves_the_project_opening_at_its_start(make_window, sample_project: Path,
                                                                   settings: StudioSettings) -> None:
    settings.set_last_selected(sample_project, "no-such-turn")
    window = make_window(sample_project)
    assert window.workspace.current_id == window.session.project.tree.root_id


def test_the_settings_keep_the_last_selected_turn_of_recent_projects_only(tmp_path: Path) -> None:
    settings = StudioSettings.at(tmp_path / "settings.ini")
    first = tmp_path / "first.kamishibai"
    settings.set_last_selected(first, "a")
    settings.set_last_selected(tmp_path / "." / "first.kamishibai", "b")  # the same project, said another way
    assert settings.last_selected(first) == "b"
    for index in range(MAX_PLACES):
        settings.set_last_selected(tmp_path / f"p{index}.kamishibai", str(index))
    assert settings.last_selected(first) is None  # the oldest went
    assert settings.last_selected(tmp_path / "p0.kamishibai") == "0"
    again = StudioSettings.at(tmp_path / "settings.ini")
    assert again.last_selected(tmp_path / f"p{MAX_PLACES - 1}.kamishibai") == str(MAX_PLACES - 1)
    settings.q.setValue("projects/last_selected", "not json")
    assert settings.last_selected(first) is None
