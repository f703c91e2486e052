"""A turn whose instruction holds a value wider than its box (a long character name, a long
motion) shows the value's start, where the name begins. (QA: the Character box showed
"…zgerald-Wolfenstein the Third of the Northern Isles", the end of the name, for every turn.)"""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import AddTurn
from studio.core.model import new_id

NAME = "Bartholomew Maximilian Fitzgerald-Wolfenstein the Third of the Northern Isles"
MOTION = "very slowly and carefully walk along the long winding road " * 3


def test_long_values_show_from_their_first_letter(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    first = ws.tree.child_ids(ws.tree.root_id)[0]
    turn = new_id()
    ws.apply(AddTurn(first, f"Character: {NAME}; Motion: {MOTION}; Background: day town.", node_id=turn))
    window.session.settle()
    qtbot.waitUntil(lambda: turn in ws.tree.nodes, timeout=10_000)
    ws.select(turn)
    editor = ws.inspector.editor
    assert editor.character.text() == NAME
    for edit in (editor.character, editor.motion):
        assert edit.fontMetrics().horizontalAdvance(edit.text()) > edit.width(), "the value fits: nothing to see"
        assert edit.cursorPosition() == 0, f"{edit.text()[:20]!r} is shown from its end"
        assert edit.cursorRect().left() < edit.width() // 4
