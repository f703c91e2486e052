"""A story field that still has the keyboard focus when the author comes back to its turn
(a click on the filmstrip or a card takes no focus) shows an undo or redo of that turn's
text, and leaving it afterwards does not save the undone text again."""

from __future__ import annotations

from pathlib import Path

from studio.composition import create_project
from studio.core.commands import AddTurn


def _two_turns(path: Path) -> Path:
    project = create_project(path, name="Two turns")
    root = project.tree.root_id
    project.apply(AddTurn(root, "Character: Qiqi; Motion: walk; Background: day town.", "first"))
    project.apply(AddTurn("first", "Character: Qiqi; Motion: run; Background: day town.", "second"))
    folder = project.path
    project.close()
    return folder


def test_a_focused_narration_box_shows_the_undo_and_keeps_it(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window(_two_turns(tmp_path / "two.kamishibai"))
    ws = window.workspace
    story = ws.inspector.story
    project = window.session.project
    ws.select("first", center=False)
    story.narration.setFocus()
    qtbot.keyClicks(story.narration, "The town wakes up.")
    ws.select("second", center=False)  # the focus stays in the narration box
    window.session.settle()
    assert project.tree.node("first").story.narration == "The town wakes up."
    ws.select("first", center=False)
    assert story.narration.hasFocus() and story.narration.toPlainText() == "The town wakes up."

    window.actions_.undo.trigger()  # Edit > Undo: the narration typed is taken back
    window.session.settle()
    assert project.tree.node("first").story.narration == ""
    qtbot.waitUntil(lambda: story.narration.toPlainText() == "", timeout=5_000)

    ws.select("second", center=False)  # leaving the box saves nothing: the undo stays
    story.narration.clearFocus()
    window.session.settle()
    assert project.tree.node("first").story.narration == ""
    assert window.actions_.redo.isEnabled()

    ws.select("first", center=False)
    story.narration.setFocus()
    window.actions_.redo.trigger()
    window.session.settle()
    qtbot.waitUntil(lambda: story.narration.toPlainText() == "The town wakes up.", timeout=5_000)


def test_a_focused_duration_box_shows_the_undo(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window(_two_turns(tmp_path / "two.kamishibai"))
    ws = window.workspace
    story = ws.inspector.story
    project = window.session.project
    ws.select("first", center=False)
    story.duration.setFocus()
    story.duration.lineEdit().selectAll()
    qtbot.keyClicks(story.duration, "4.5")
    ws.select("second", center=False)
    window.session.settle()
    assert project.tree.node("first").story.duration == 4.5
    ws.select("first", center=False)
    assert story.duration.hasFocus() and story.duration.value() == 4.5

    window.actions_.undo.trigger()
    window.session.settle()
    assert project.tree.node("first").story.duration is None
    qtbot.waitUntil(lambda: story.duration.value() == 0.0, timeout=5_000)
    assert story.duration.text() == "clip length"
