"""Lock seed locks the shown turn's take even after a take tile of another turn was clicked
(the take focused there is not among this turn's tiles)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt

from tests.ui.conftest import generate_first_branch


def test_lock_seed_after_a_tile_of_another_turn_was_clicked(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    workspace, project = window.workspace, window.session.project
    generate_first_branch(window, qtbot)
    window.session.settle()
    qtbot.wait(100)
    tree = project.tree
    first = tree.child_ids(tree.root_id)[0]
    second = tree.child_ids(first)[0]
    workspace.select(first, center=False)
    qtbot.wait(100)
    qtbot.mouseClick(workspace.inspector.takes.tiles[0], Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    workspace.select(second, center=False)
    qtbot.wait(100)
    assert workspace.inspector.takes.tiles
    workspace.inspector.takes.lock_button.click()
    qtbot.wait(50)
    assert window.session.settings.locked_seed == project.tree.selected_take(second).seed
    assert workspace.inspector.takes.lock_button.isChecked()
