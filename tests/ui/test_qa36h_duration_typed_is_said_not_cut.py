"""A duration typed in the inspector is saved as typed or refused with a note, never cut: the
box dropped every key it could not take without a word, so ``999999`` saved 99 s, ``1e3``
13 s and ``0.05`` the clip's length (the turn's own duration lost), as the author moved on."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from studio.storage.project import Project


def _type_duration(qtbot, story, typed: str, leave) -> None:  # type: ignore[no-untyped-def]
    story.duration.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is story.duration, timeout=5000)
    story.duration.selectAll()
    qtbot.keyClicks(story.duration, typed)
    leave()


@pytest.mark.parametrize(("typed", "why"), [
    ("999999", "999999 s is outside 0.1..600 s"),
    ("1e3", "not '1e3'"),
    ("0.05", "0.05 s is outside 0.1..600 s"),
    ("-1", "-1 s is outside 0.1..600 s"),
    ("abc", "not 'abc'"),
])
def test_a_duration_the_turn_cannot_hold_is_refused_and_the_turn_keeps_its_own(
        make_window, sample_project: Path, qtbot, typed: str, why: str) -> None:
    window = make_window(sample_project)
    session, ws = window.session, window.workspace
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    ws.select(turn)
    story = ws.inspector.story

    def leave() -> None:
        story.shot_notes.setFocus(Qt.FocusReason.MouseFocusReason)
        qtbot.waitUntil(lambda: QApplication.focusWidget() is story.shot_notes, timeout=5000)
        session.settle()

    _type_duration(qtbot, story, "3.5s", leave)  # written as a person writes it: taken
    assert session.project.tree.node(turn).story.duration == 3.5
    assert story.duration_note.isHidden()

    _type_duration(qtbot, story, typed, leave)
    assert session.project.tree.node(turn).story.duration == 3.5
    assert story.duration.text() == "3.5 s"
    assert story.duration_note.isVisible()
    note = story.duration_note.text()
    assert why in note and "0 for the clip's own length" in note and "keeps 3.5 s" in note, note

    _type_duration(qtbot, story, "4", lambda: qtbot.keyClick(story.duration, Qt.Key.Key_Return))  # Enter saves
    session.settle()
    assert session.project.tree.node(turn).story.duration == 4.0
    assert story.duration_note.isHidden()
    path = session.project.path
    window.close_project("cancel")
    reopened = Project.open(path)
    try:
        assert reopened.tree.node(turn).story.duration == 4.0
    finally:
        reopened.close()


def test_a_refused_duration_half_typed_is_not_saved_on_switching_turns(
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    session, ws = window.session, window.workspace
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    other = tree.child_ids(turn)[0]
    ws.select(turn)
    story = ws.inspector.story
    _type_duration(qtbot, story, "7", lambda: ws.select(other))  # a good one is saved on the way out
    session.settle()
    assert session.project.tree.node(turn).story.duration == 7.0
    ws.select(turn)
    _type_duration(qtbot, story, "99999", lambda: ws.select(other))
    session.settle()
    assert session.project.tree.node(turn).story.duration == 7.0
