"""A screen reader hears the selected turn of the story tree (QA: the tree is a graphics view
whose cards assistive technology cannot see; a screen reader said only "Story tree", and
nothing as the arrow keys moved from card to card)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible

from studio.ui.node_summary import CardStatus
from tests.ui.conftest import fake_engine_window
from tests.ui.keys import press_story_key

TIMEOUT_MS = 60_000


def _heard(view) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """What assistive technology reads of the view: its accessible name and description."""
    interface = QAccessible.queryAccessibleInterface(view)
    assert interface is not None
    return interface.text(QAccessible.Text.Name), interface.text(QAccessible.Text.Description)


def test_arrow_keys_name_each_selected_turn(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    name, description = _heard(ws.view)
    assert name.startswith("Story tree: the start of the story") and "1 turn after it" in name
    assert "Arrow keys" in description

    press_story_key(window, qtbot, Qt.Key.Key_Right)
    first = tree.child_ids(tree.root_id)[0]
    assert ws.current_id == first
    name, description = _heard(ws.view)
    assert name == ("Story tree, turn 1 of 5: Qiqi, day sky: Qiqi quickly flies on the broomstick in the sky, by day. "
                    "Not generated yet. "
                    "No alternatives.")
    assert description.startswith("No takes. 1 turn after it.")

    press_story_key(window, qtbot, Qt.Key.Key_Right)
    press_story_key(window, qtbot, Qt.Key.Key_Right)  # turn 3, the top one of two alternatives
    top, bottom = tree.child_ids(tree.child_ids(first)[0])
    assert ws.current_id == top
    name, _ = _heard(ws.view)
    assert name.startswith("Story tree, turn 3 of 5: Yuzu, day bakery: Yuzu happily waves in the bakery, by day.")
    assert name.endswith("Alternative 1 of 2.")

    press_story_key(window, qtbot, Qt.Key.Key_Down)
    assert ws.current_id == bottom
    name, _ = _heard(ws.view)
    assert name.startswith("Story tree, turn 3 of 5: Yuzu, day park: Yuzu energetically runs in the park, by day.")
    assert name.endswith("Alternative 2 of 2.")

    press_story_key(window, qtbot, Qt.Key.Key_End)
    name, _ = _heard(ws.view)
    assert name.startswith("Story tree, turn 5 of 5: Qiqi, sunset sky: "
                           "Qiqi gently flies on the broomstick in the sky, at sunset.")

    press_story_key(window, qtbot, Qt.Key.Key_Home)
    assert _heard(ws.view)[0].startswith("Story tree: the start of the story")


def test_the_selected_turns_status_is_told_as_it_changes(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, qtbot, settings, registry) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    second = tree.child_ids(first)[0]
    script.fail_on.add(tree.node(second).instruction.raw)

    ws.select(first)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: ws.scene.status(first) == CardStatus.DONE, timeout=TIMEOUT_MS)
    name, description = _heard(ws.view)
    assert ". Generated. No alternatives." in name
    assert description.startswith("1 take. 1 turn after it.")

    press_story_key(window, qtbot, Qt.Key.Key_Right)
    assert ws.current_id == second
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: ws.scene.status(second) == CardStatus.FAILED, timeout=TIMEOUT_MS)
    name, description = _heard(ws.view)
    assert ". Generation failed. No alternatives." in name
    assert "Error: the fake engine was told to fail" in description

    press_story_key(window, qtbot, Qt.Key.Key_B)  # a bookmark is told too
    qtbot.waitUntil(lambda: "Bookmarked" in _heard(ws.view)[1], timeout=TIMEOUT_MS)
