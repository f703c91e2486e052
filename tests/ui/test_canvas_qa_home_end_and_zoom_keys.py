"""The canvas's Home and End keys, and its zoom keys with modifiers (QA: Home and End did
nothing on the canvas, though Left and Right walk the branch a turn at a time; `Alt+-` and
`Alt+=` zoomed as `-` and `=` do, taking keys that are no zoom shortcut; after Ctrl+0 fitted a
tree of thousands of turns, further out than the zoom's limit, `-` zoomed in)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF, Qt

from studio.core.commands import DeleteSubtree
from studio.ui.canvas.geometry import CARD_H, CARD_W
from studio.ui.canvas.tree_view import MIN_SCALE
from tests.ui.keys import press_story_key

Key = Qt.Key
Mod = Qt.KeyboardModifier


def _card_in_view(window, node_id: str) -> bool:  # type: ignore[no-untyped-def]
    view, cell = window.workspace.view, window.workspace.scene.cells[node_id]
    return bool(view.visible_scene_rect().contains(QRectF(cell.x, cell.y, CARD_W, CARD_H)))


def test_home_and_end_go_to_the_ends_of_the_selected_branch(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, tree = window.workspace, window.session.project.tree
    second = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    _, alternative = tree.child_ids(second)  # turn 3's second alternative: not the first branch
    ws.select(alternative)
    leaf = tree.leaves_under(alternative)[-1].id
    assert ws.branch[-1] == leaf and leaf != tree.leaves_under(tree.root_id)[0].id

    press_story_key(window, qtbot, Key.Key_Home)
    assert ws.current_id == tree.root_id  # the start, where Left held down ends
    assert _card_in_view(window, tree.root_id)  # the view follows, as it does for the arrows
    assert ws.view.hasFocus()  # the next key still walks the tree
    press_story_key(window, qtbot, Key.Key_End)
    assert ws.current_id == leaf  # the same branch's last turn, not the first branch's
    assert _card_in_view(window, leaf)
    press_story_key(window, qtbot, Key.Key_End)  # already there: stays
    assert ws.current_id == leaf
    assert window.last_error is None


def test_home_and_end_on_a_story_with_only_its_start(make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.composition import create_project

    project = create_project(tmp_path / "empty.kamishibai", name="Empty")
    path = project.path
    project.close()
    window = make_window(path)
    root = window.session.project.tree.root_id
    for key in (Key.Key_End, Key.Key_Home, Key.Key_Right, Key.Key_Left):
        press_story_key(window, qtbot, key)
        assert window.workspace.current_id == root
    assert window.last_error is None


@pytest.mark.parametrize("key", [Key.Key_Home, Key.Key_End])
def test_home_or_end_on_a_turn_just_deleted_does_nothing(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                         key: Qt.Key) -> None:
    window = make_window(sample_project)
    ws, project = window.workspace, window.session.project
    tree = project.tree
    turn = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(turn)
    ws.view.setFocus()
    project.apply(DeleteSubtree(turn))  # made on the writer now; the window hears of it later
    assert turn not in project.tree.nodes and ws.current_id == turn
    qtbot.keyClick(ws.view, key)
    assert ws.current_id == turn  # nothing selected yet: the window is about to pick a turn
    qtbot.waitUntil(lambda: ws.current_id in project.tree.nodes, timeout=10_000)
    assert window.last_error is None


@pytest.mark.parametrize("modifier", [Mod.AltModifier, Mod.MetaModifier, Mod.AltModifier | Mod.ControlModifier])
@pytest.mark.parametrize("key", [Key.Key_Minus, Key.Key_Equal, Key.Key_Plus])
def test_zoom_keys_with_alt_or_meta_do_not_zoom(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                               key: Qt.Key, modifier: Qt.KeyboardModifier) -> None:
    window = make_window(sample_project)
    view = window.workspace.view
    view.set_zoom(0.8)
    view.setFocus()
    qtbot.keyClick(view, key, modifier)
    assert view.zoom == pytest.approx(0.8)


@pytest.mark.parametrize(("key", "modifier", "zoom_in"), [
    (Key.Key_Minus, Mod.NoModifier, False), (Key.Key_Minus, Mod.KeypadModifier, False),
    (Key.Key_Minus, Mod.ControlModifier, False), (Key.Key_Equal, Mod.NoModifier, True),
    (Key.Key_Equal, Mod.ControlModifier, True), (Key.Key_Plus, Mod.ShiftModifier, True),
    (Key.Key_Plus, Mod.KeypadModifier, True)])
def test_zoom_keys_still_zoom(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                              key: Qt.Key, modifier: Qt.KeyboardModifier, zoom_in: bool) -> None:
    window = make_window(sample_project)
    view = window.workspace.view
    view.set_zoom(0.8)
    view.setFocus()
    qtbot.keyClick(view, key, modifier)
    assert (view.zoom > 0.8) if zoom_in else (view.zoom < 0.8)


def _long_branch(folder: Path, turns: int) -> Path:
    from studio.composition import create_project
    from studio.storage.demo_import import import_demo

    demo = folder / "long.txt"
    demo.write_text("".join(f"Character: Qiqi; Motion: walk; Background: day town. Step {n}\n"
                            for n in range(turns)), encoding="utf-8")
    project = create_project(folder / "long.kamishibai", name="Long")
    import_demo(project, demo)
    path = project.path
    project.close()
    return path


def test_zoom_out_after_fitting_a_huge_tree_does_not_zoom_in(make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(_long_branch(tmp_path, 4000))
    window.resize(1280, 720)
    qtbot.wait(100)
    view = window.workspace.view
    view.setFocus()
    qtbot.keyClick(view, Key.Key_0, Mod.ControlModifier)  # fit the whole tree
    fitted = view.zoom
    assert fitted < MIN_SCALE  # 4,000 turns side by side: further out than "-" goes
    press_story_key(window, qtbot, Key.Key_Minus)
    assert view.zoom <= fitted  # it zoomed in to MIN_SCALE
    press_story_key(window, qtbot, Key.Key_Equal)
    assert view.zoom > fitted
