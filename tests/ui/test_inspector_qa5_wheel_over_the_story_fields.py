"""A mouse wheel passing over the inspector's boxes (scrolling the inspector) changes nothing:
over a turn's duration and a line's speaker it changed them, and moving on to another turn
saved the change (Set duration, Edit dialogue) that the author never made; over the time of
day it changed the instruction being typed. A box with the keyboard focus still takes the
wheel, as the author then means it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QWidget


def _wheel(widget: QWidget) -> None:
    """One notch of the wheel over ``widget``'s middle (towards the user)."""
    pos = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0), QPoint(0, -120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                        False)
    QApplication.sendEvent(widget, event)


def test_a_wheel_over_the_story_fields_changes_nothing(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    before = tree.node(leaf)
    ws.select(leaf, center=False)
    inspector = ws.inspector
    story = inspector.story
    assert story.rows and before.story.duration is not None
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    speaker = story.rows[0].speaker.currentText()
    time = inspector.editor.time.currentText()

    for box in (story.duration, story.rows[0].speaker, inspector.editor.time):
        _wheel(box)
    assert story.duration.value() == before.story.duration
    assert story.rows[0].speaker.currentText() == speaker
    assert inspector.editor.time.currentText() == time
    assert ws.view.hasFocus()  # the wheel took no focus either

    ws.select(tree.root_id, center=False)  # moving on saves nothing
    session.settle()
    qtbot.wait(100)
    session.settle()
    assert session.project.tree.node(leaf) == before
    assert not window.actions_.undo.isEnabled()


def test_a_focused_duration_box_still_takes_the_wheel(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    duration = ws.inspector.story.duration
    shown = duration.value()
    duration.setFocus()
    qtbot.waitUntil(duration.hasFocus, timeout=5000)
    _wheel(duration)
    assert duration.value() == shown - duration.singleStep()
