"""Undo (the toolbar's, the Edit menu's) with typing in the inspector not saved yet: notes or
narration waiting for the pause that saves them, a dialogue line or a start value still being
typed, an instruction edited and not saved. The
typing was saved just after the undo (its pause, or the selection moving on), as a new edit:
that threw away what the undo had put in Redo, and an undo of the turn's own instruction edit
threw the typed instruction away altogether. Now the typing is saved first, as a step of its
own, and Undo takes that step back: Redo brings it again, and nothing is lost."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from studio.core.commands import EditInstruction, SetNarration
from studio.core.tree import StoryTree
from studio.storage.project import Project
from studio.ui.inspector.instruction_editor import shown_line


def _settle(window, qtbot, ms: int = 150) -> None:  # type: ignore[no-untyped-def]
    window.session.settle()
    QApplication.processEvents()
    qtbot.wait(ms)
    window.session.settle()
    QApplication.processEvents()


def _on_disk(window) -> StoryTree:  # type: ignore[no-untyped-def]
    """The story as saved: the project read again from its database."""
    project = Project.open(window.session.project.path, read_only=True)
    try:
        return project.tree
    finally:
        project.close()


def _history(window) -> tuple[list[str], list[str]]:  # type: ignore[no-untyped-def]
    history = window.session.project.document.history
    return [e.label for e in history.done], [e.label for e in history.undone]


def _press(window, qtbot, action) -> None:  # type: ignore[no-untyped-def]
    action.trigger()
    _settle(window, qtbot, 300)  # past any pause that would save typing left waiting


def _a_turn(window):  # type: ignore[no-untyped-def]
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    return leaf, tree.nodes[leaf].parent_id


def test_undo_with_narration_waiting_takes_it_back_and_redo_brings_it(make_window, sample_project: Path,
                                                                       qtbot) -> None:
    window = make_window(sample_project)
    ws, ins = window.workspace, window.workspace.inspector
    leaf, _parent = _a_turn(window)
    ws.select(leaf, center=False)
    _settle(window, qtbot)
    ins.notes.setPlainText("Check the sea colour")
    ins.commit_notes()
    _settle(window, qtbot)
    ins.story.narration.setPlainText("The wind rises.")  # its pause has not come yet
    _press(window, qtbot, window.actions_.undo)
    assert _history(window) == (["Edit notes"], ["Edit narration"])
    saved = _on_disk(window).nodes[leaf]
    assert saved.story.narration == "" and saved.notes == "Check the sea colour"
    assert ins.story.narration.toPlainText() == "" and ins.notes.toPlainText() == "Check the sea colour"
    _press(window, qtbot, window.actions_.redo)
    assert _on_disk(window).nodes[leaf].story.narration == "The wind rises."
    assert ins.story.narration.toPlainText() == "The wind rises."
    _press(window, qtbot, window.actions_.undo)
    _press(window, qtbot, window.actions_.undo)  # the notes, still there to undo
    assert _on_disk(window).nodes[leaf].notes == "" and ins.notes.toPlainText() == ""
    assert _history(window) == ([], ["Edit narration", "Edit notes"])


def test_undo_of_another_turns_edit_keeps_its_redo_and_the_typed_instruction(make_window, sample_project: Path,
                                                                            qtbot) -> None:
    window = make_window(sample_project)
    ws, ins = window.workspace, window.workspace.inspector
    leaf, parent = _a_turn(window)
    original = window.session.project.tree.nodes[leaf].instruction.raw
    narration = window.session.project.tree.nodes[parent].story.narration
    ws.apply(SetNarration(parent, "Earlier that day."))
    ws.select(leaf, center=False)
    _settle(window, qtbot)
    ins.editor.motion.setText("climbs the stairs")
    typed = ins.editor.text()
    _press(window, qtbot, window.actions_.undo)  # the typing is the last step: it goes first
    assert _on_disk(window).nodes[leaf].instruction.raw == original
    assert _on_disk(window).nodes[parent].story.narration == "Earlier that day."
    assert ws.current_id == leaf
    assert ins.editor.text() == shown_line(window.session.project.tree.nodes[leaf].instruction)
    _press(window, qtbot, window.actions_.undo)  # then the other turn's narration
    assert _on_disk(window).nodes[parent].story.narration == narration
    assert _history(window) == ([], ["Edit instruction", "Edit narration"])  # both can be redone
    _press(window, qtbot, window.actions_.redo)
    _press(window, qtbot, window.actions_.redo)
    disk = _on_disk(window)
    assert disk.nodes[parent].story.narration == "Earlier that day."
    assert disk.nodes[leaf].instruction.raw == typed
    ws.select(leaf, center=False)
    _settle(window, qtbot)
    assert ins.editor.text() == typed


def test_undo_of_the_turns_own_edit_keeps_what_was_typed_over_it(make_window, sample_project: Path,
                                                                 qtbot) -> None:
    window = make_window(sample_project)
    ws, ins = window.workspace, window.workspace.inspector
    leaf, _parent = _a_turn(window)
    ws.select(leaf, center=False)
    ws.apply(EditInstruction(leaf, "Character: Qiqi; Motion: bows; Background: night bedroom."))
    _settle(window, qtbot)
    ins.editor.motion.setText("bows deeply twice")
    typed = ins.editor.text()
    _press(window, qtbot, window.actions_.undo)
    bows = "Character: Qiqi; Motion: bows; Background: night bedroom."
    assert _on_disk(window).nodes[leaf].instruction.raw == bows
    assert window.session.project.tree.nodes[leaf].instruction.raw == bows
    assert ins.editor.text() == shown_line(window.session.project.tree.nodes[leaf].instruction)  # as saved
    _press(window, qtbot, window.actions_.redo)  # the typing was kept, in Redo
    assert _on_disk(window).nodes[leaf].instruction.raw == typed
    assert ins.editor.text() == typed
    _press(window, qtbot, window.actions_.undo)
    _press(window, qtbot, window.actions_.undo)
    assert _on_disk(window).nodes[leaf].instruction.raw != bows
    assert ins.editor.text() == shown_line(window.session.project.tree.nodes[leaf].instruction)


def test_undo_with_a_dialogue_line_being_written_keeps_the_older_steps_redo(make_window, sample_project: Path,
                                                                             qtbot) -> None:
    from PySide6.QtWidgets import QLineEdit

    window = make_window(sample_project)
    ws, ins = window.workspace, window.workspace.inspector
    leaf, _parent = _a_turn(window)
    ws.select(leaf, center=False)
    _settle(window, qtbot)
    before = window.session.project.tree.nodes[leaf].story.dialogue
    ins.notes.setPlainText("A note")
    ins.commit_notes()
    _settle(window, qtbot)
    row = ins.story.add_dialogue_line()
    row.findChildren(QLineEdit)[-1].setText("Where is the cake?")
    _press(window, qtbot, window.actions_.undo)
    assert _history(window) == (["Edit notes"], ["Edit dialogue"])
    assert ins.story.dialogue() == before == _on_disk(window).nodes[leaf].story.dialogue
    ws.select(window.session.project.tree.root_id, center=False)  # moving on saves nothing more
    _settle(window, qtbot)
    assert _history(window) == (["Edit notes"], ["Edit dialogue"])
    _press(window, qtbot, window.actions_.redo)
    lines = _on_disk(window).nodes[leaf].story.dialogue
    assert lines[:-1] == before and lines[-1].text == "Where is the cake?"


def test_undo_in_a_line_being_typed_takes_back_the_typing_then_the_saved_edit(make_window, sample_project: Path,
                                                                              qtbot) -> None:
    from PySide6.QtCore import Qt

    window = make_window(sample_project)
    ws, ins = window.workspace, window.workspace.inspector
    leaf, _parent = _a_turn(window)
    ws.select(leaf, center=False)
    _settle(window, qtbot)
    first = [line.text for line in window.session.project.tree.nodes[leaf].story.dialogue]
    line = ins.story.rows[0].text
    line.setFocus()
    qtbot.waitUntil(line.hasFocus, timeout=5000)
    line.end(False)
    qtbot.keyClicks(line, " Yes.")
    qtbot.keyClick(line, Qt.Key.Key_Return)  # saved: a step
    _settle(window, qtbot)
    qtbot.keyClicks(line, " Really.")  # no Enter: still being typed, the focus in the line
    _press(window, qtbot, window.actions_.undo)  # the toolbar's: it takes no focus
    said = [row.line().text for row in ins.story.rows]
    assert said[0] == first[0] + " Yes."
    assert [x.text for x in _on_disk(window).nodes[leaf].story.dialogue] == said
    _press(window, qtbot, window.actions_.undo)
    assert [row.line().text for row in ins.story.rows] == first
    assert [x.text for x in _on_disk(window).nodes[leaf].story.dialogue] == first
    _press(window, qtbot, window.actions_.redo)
    _press(window, qtbot, window.actions_.redo)  # the typing was kept
    assert _on_disk(window).nodes[leaf].story.dialogue[0].text == first[0] + " Yes. Really."
    assert ins.story.rows[0].line().text == first[0] + " Yes. Really."


def test_undo_with_a_start_value_being_typed_takes_it_back(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, ins = window.workspace, window.workspace.inspector
    root = window.session.project.tree.root_id
    ws.select(root, center=False)
    _settle(window, qtbot)
    ins.notes.setPlainText("The story starts at dawn")
    ins.commit_notes()
    _settle(window, qtbot)
    name = next(iter(ins.start.spins))
    before = window.session.project.tree.start_state_of(name)
    box = ins.start.spins[name]["stamina"]
    box.setFocus()
    qtbot.waitUntil(box.hasFocus, timeout=5000)
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), "85")  # no Enter: the box saves as it loses the focus
    _press(window, qtbot, window.actions_.undo)
    assert _history(window) == (["Edit notes"], ["Set start state"])
    assert _on_disk(window).start_state_of(name) == before
    assert ins.start.spins[name]["stamina"].value() == before.stamina
    ws.view.setFocus()  # the box loses the focus: nothing more is saved
    _settle(window, qtbot)
    assert _history(window) == (["Edit notes"], ["Set start state"])
    _press(window, qtbot, window.actions_.redo)
    assert _on_disk(window).start_state_of(name).stamina == 85
    assert ins.start.spins[name]["stamina"].value() == 85
