"""A story text the document refuses (a pasted tab in the narration) is named once: leaving the
box afterwards, with nothing typed since (the warning's own window takes the focus), sent it
again and showed a second warning for the same mistake. Text typed since is still saved on
leaving."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


@pytest.mark.parametrize("field", ["narration", "shot_notes"])
def test_leaving_a_refused_story_box_does_not_warn_again(make_window, sample_project: Path, qtbot,
                                                        field: str) -> None:
    window = make_window(sample_project)
    errors: list[str] = []
    window.show_error = lambda error: errors.append(error.message)  # type: ignore[method-assign]
    session, ws = window.session, window.workspace
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    ws.select(turn)
    story = ws.inspector.story
    box = getattr(story, field)
    box.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is box, timeout=5000)

    before = getattr(tree.node(turn).story, field)
    box.selectAll()
    box.insertPlainText("hello\tworld")  # as a paste does
    qtbot.waitUntil(lambda: bool(errors), timeout=5000)  # the debounce sent it; refused
    session.settle()
    assert "U+0009" in errors[0]
    story.duration.setFocus(Qt.FocusReason.MouseFocusReason)  # the author clicks elsewhere
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not box, timeout=5000)
    session.settle()
    qtbot.wait(50)
    assert len(errors) == 1, errors
    assert getattr(session.project.tree.node(turn).story, field) == before

    box.setFocus(Qt.FocusReason.MouseFocusReason)  # fixed, then left at once: saved on leaving
    qtbot.waitUntil(lambda: QApplication.focusWidget() is box, timeout=5000)
    box.selectAll()
    box.insertPlainText("hello world")
    story.duration.setFocus(Qt.FocusReason.MouseFocusReason)
    session.settle()
    qtbot.waitUntil(lambda: getattr(session.project.tree.node(turn).story, field) == "hello world", timeout=5000)
    assert len(errors) == 1, errors
