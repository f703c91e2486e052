"""Forking a turn makes another way to tell the same moment: the alternative copies what was
written for the turn (its instruction, to edit, its dialogue, narration, timing, shot notes and
notes) and nothing made or marked on it (takes, bookmark), as one undoable step, and the status
bar says what it copied (QA: the notes were left behind, although notes being typed were saved
just before forking so that the fork would have them, and nothing said what a fork copies)."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import SetBookmark, SetNotes
from tests.ui.conftest import generate_first_branch


def test_a_fork_copies_the_turns_writing_and_notes_in_one_undoable_step(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                       qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    project = session.project
    generate_first_branch(window, qtbot)
    first = project.tree.child_ids(project.tree.root_id)[0]
    project.apply(SetNotes(first, "Keep her cheerful."))
    project.apply(SetBookmark(first, True))
    session.settle()
    ws.select(first, center=False)
    qtbot.waitUntil(lambda: ws.inspector.notes.toPlainText() == "Keep her cheerful.", timeout=5000)
    ws.inspector.notes.setFocus()
    ws.inspector.notes.selectAll()
    qtbot.keyClicks(ws.inspector.notes, "Keep her tired, then cheerful.")  # typed, not saved yet

    window.actions_.fork.trigger()
    qtbot.waitUntil(lambda: ws.current_id != first and ws.current_id in project.tree.nodes, timeout=10_000)
    session.settle()
    tree = project.tree
    fork, original = tree.node(ws.current_id), tree.node(first)
    assert fork.parent_id == original.parent_id
    assert fork.instruction.raw == original.instruction.raw
    assert fork.story == original.story and fork.story.narration and fork.story.dialogue
    assert original.notes == fork.notes == "Keep her tired, then cheerful."
    assert not fork.bookmarked and not tree.takes_of(fork.id) and fork.selected_take_id is None
    assert ws.inspector.notes.toPlainText() == "Keep her tired, then cheerful."  # the fork's, shown
    said = window.status_label.text()
    assert "dialogue" in said and "narration" in said and "and notes" in said and "without its takes" in said

    labels = [entry.label for entry in project.document.history.done]
    assert labels[-2:] == ["Edit notes", "Fork turn"]  # the typed note is the original's edit; the fork one step
    qtbot.waitUntil(window.actions_.undo.isEnabled, timeout=5000)
    window.actions_.undo.trigger()
    qtbot.waitUntil(lambda: fork.id not in project.tree.nodes, timeout=10_000)
    assert project.tree.node(first).notes == "Keep her tired, then cheerful."
    qtbot.waitUntil(window.actions_.redo.isEnabled, timeout=5000)
    window.actions_.redo.trigger()
    qtbot.waitUntil(lambda: fork.id in project.tree.nodes, timeout=10_000)
    assert project.tree.node(fork.id).notes == "Keep her tired, then cheerful."
