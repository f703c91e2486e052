"""The Cast & world dock brought out in a 1280x720 window leaves the tree at least half of the
window's width, with the selected turn in view (QA: Alt+3 showed it about 580 pixels wide,
the tree kept about 290, the selected card went out of view and the branch chart shrank to
"Branc…")."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


def _settled(qtbot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(5):
        QApplication.processEvents()
        qtbot.wait(20)


@pytest.mark.parametrize("how", ["alt3", "view_menu"])
def test_the_cast_dock_brought_out_leaves_the_tree_half(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                        how: str) -> None:
    window = make_window(sample_project)
    window.resize(1280, 720)
    _settled(qtbot)
    ws = window.workspace
    tree = window.session.project.tree
    turn2 = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.select(turn2)
    _settled(qtbot)
    assert window.cast_dock.isHidden()  # a window this narrow folds it away

    if how == "alt3":
        ws.view.setFocus()
        qtbot.keyClick(ws.view, Qt.Key.Key_3, Qt.KeyboardModifier.AltModifier)
    else:
        window.cast_dock.toggleViewAction().trigger()
    _settled(qtbot)

    assert window.cast_dock.isVisible()
    assert ws.width() >= window.width() // 2, (ws.width(), window.cast_dock.width())
    card = ws.scene.cards[turn2].sceneBoundingRect()
    shown = ws.view.visible_scene_rect()
    assert shown.left() <= card.center().x() <= shown.right()
