"""The episode panel's filmstrip and state chart say what they are and which turn is
selected, to a screen reader reviewing the window: their accessible names ("Branch
filmstrip", "State chart") and descriptions (the selected turn's words and status; the
acting character's state there), which follow the selection.

Before, both were painted widgets without a name: a screen reader found two nameless
"filler" objects under the branch's title."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible

from tests.ui.keys import press_story_key


def _heard(widget) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    interface = QAccessible.queryAccessibleInterface(widget)
    assert interface is not None
    return interface.text(QAccessible.Text.Name), interface.text(QAccessible.Text.Description)


def test_the_filmstrip_and_the_chart_follow_the_selected_turn(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    strip, chart = ws.episode.strip, ws.episode.chart
    ws.select(tree.root_id)
    qtbot.wait(150)
    name, description = _heard(strip)
    assert name == "Branch filmstrip"
    assert description.startswith("5 turns after the start. The start of the story is selected.")
    assert "double-click" in description
    name, description = _heard(chart)
    assert name == "State chart"
    assert description == ("Acting character, turn by turn along the branch. "
                           "At the start: stamina 50, social 50, fun 50.")

    press_story_key(window, qtbot, Qt.Key.Key_Right)
    first = tree.child_ids(tree.root_id)[0]
    assert ws.current_id == first
    qtbot.waitUntil(lambda: "Turn 1 is selected" in _heard(strip)[1], timeout=20_000)
    description = _heard(strip)[1]
    # the turn as its subtitle says it, with one full stop
    assert "Turn 1 is selected: Qiqi quickly flies on the broomstick" in description and ".." not in description
    assert "Not generated yet" in description
    # a turn without a take has no state yet (no made-up values for it)
    assert "Turn 1: not generated yet" in _heard(chart)[1] and "stamina" not in _heard(chart)[1]


def test_the_strip_tells_a_generated_turn(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: "Turn 1 is selected" in _heard(ws.episode.strip)[1]
                    and "Generated" in _heard(ws.episode.strip)[1], timeout=60_000)
    state = ws.tree.state_of(first)
    qtbot.waitUntil(lambda: f"stamina {state.stamina}, social {state.social}, fun {state.entertainment}."
                    in _heard(ws.episode.chart)[1], timeout=20_000)
    assert _heard(ws.episode.chart)[1].startswith("Acting character, turn by turn along the branch. At turn 1: ")
