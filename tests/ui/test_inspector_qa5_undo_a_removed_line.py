"""An undo of a dialogue edit stands: while the keyboard focus is still in a line being
edited (the toolbar's Undo takes no focus), the rows rebuilt for the undo do not save their
old lines over it as the focused one goes; and the undo of a removed line made before the
window has shown the removal brings the line back on screen too."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.composition import create_project
from studio.core.commands import AddTurn, SetDialogue
from studio.core.story import DialogueLine


def _turn_with_two_lines(path: Path) -> Path:
    project = create_project(path, name="Lines")
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: walk; Background: day town.", "first"))
    project.apply(SetDialogue("first", (DialogueLine("Qiqi", "Good morning."), DialogueLine("Qiqi", "Bread?"))))
    folder = project.path
    project.close()
    return folder


def _lines(project) -> list[str]:  # type: ignore[no-untyped-def]
    return [line.text for line in project.tree.node("first").story.dialogue]


def test_an_undo_is_kept_while_a_line_is_being_edited(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window(_turn_with_two_lines(tmp_path / "lines.kamishibai"))
    ws, session = window.workspace, window.session
    project = session.project
    ws.select("first", center=False)
    story = ws.inspector.story
    second = story.rows[1].text
    second.setFocus()
    qtbot.waitUntil(second.hasFocus, timeout=5000)
    second.end(False)
    qtbot.keyClicks(second, " Two, please.")
    qtbot.keyClick(second, Qt.Key.Key_Return)  # saved: one undo step
    session.settle()
    qtbot.waitUntil(lambda: [line.text for line in story.story.dialogue] == ["Good morning.", "Bread? Two, please."],
                    timeout=5000)  # the window has shown it
    qtbot.keyClicks(second, " Now!")  # no Enter: still being edited
    assert second.hasFocus()

    window.actions_.undo.trigger()  # the toolbar's Undo: the focus stays in the line
    session.settle()
    # the typing is saved as its own step first, and that step is what the first Undo takes back
    # (as a text box does): it goes to Redo, not lost
    qtbot.waitUntil(lambda: [r.line().text for r in story.rows] == ["Good morning.", "Bread? Two, please."],
                    timeout=5000)
    assert _lines(project) == ["Good morning.", "Bread? Two, please."]
    assert window.actions_.redo.isEnabled()
    window.actions_.undo.trigger()  # the saved edit before it
    session.settle()
    qtbot.waitUntil(lambda: [r.line().text for r in story.rows] == ["Good morning.", "Bread?"], timeout=5000)
    qtbot.wait(100)
    session.settle()
    assert _lines(project) == ["Good morning.", "Bread?"]  # the undo stands
    assert window.actions_.redo.isEnabled()
    window.actions_.redo.trigger()
    window.actions_.redo.trigger()
    session.settle()
    qtbot.waitUntil(lambda: _lines(project) == ["Good morning.", "Bread? Two, please. Now!"], timeout=5000)


def test_an_undo_made_before_the_removal_was_shown_shows_the_line_again(make_window, tmp_path: Path,
                                                                        qtbot) -> None:
    window = make_window(_turn_with_two_lines(tmp_path / "lines.kamishibai"))
    ws, session = window.workspace, window.session
    project = session.project
    ws.select("first", center=False)
    story = ws.inspector.story

    qtbot.mouseClick(story.rows[0].remove, Qt.MouseButton.LeftButton)
    session.settle()
    assert _lines(project) == ["Bread?"]
    window.actions_.undo.trigger()  # at once: the window hears of both changes together
    session.settle()
    assert _lines(project) == ["Good morning.", "Bread?"]
    qtbot.waitUntil(lambda: [r.line().text for r in story.rows] == ["Good morning.", "Bread?"], timeout=5000)

    window.actions_.redo.trigger()
    session.settle()
    qtbot.waitUntil(lambda: [r.line().text for r in story.rows] == ["Bread?"], timeout=5000)
    assert _lines(project) == ["Bread?"]


def test_a_refused_line_stays_to_be_fixed_after_another_change(make_window, tmp_path: Path, qtbot) -> None:
    from studio.core.commands import SetNotes

    window = make_window(_turn_with_two_lines(tmp_path / "lines.kamishibai"))
    ws, session = window.workspace, window.session
    errors: list[object] = []
    ws.error.connect(errors.append)
    ws.select("first", center=False)
    story = ws.inspector.story
    row = story.add_dialogue_line()
    row.speaker.setEditText("Qi\u202eqi")  # a right-to-left override: the document refuses it
    qtbot.keyClicks(row.text, "Hello")
    qtbot.keyClick(row.text, Qt.Key.Key_Return)
    session.settle()
    qtbot.waitUntil(lambda: bool(errors), timeout=5000)
    ws.apply(SetNotes("first", "a note"))  # any change redraws the turn
    session.settle()
    qtbot.waitUntil(lambda: ws.inspector.notes.toPlainText() == "a note", timeout=5000)
    assert [r.line().text for r in story.rows] == ["Good morning.", "Bread?", "Hello"]
