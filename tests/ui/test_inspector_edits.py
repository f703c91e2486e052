"""Edits typed in the inspector land on the turn they were typed on, once: undo and redo of the
notes, a dialogue line or a duration being typed when a toolbar button or a menu moves the
selection (those take no focus, so no field says that its editing finished), and a line being
typed while a background change refreshes the turn."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import SetNarration


def _two_turns(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    """The sample's window with its second turn of the first branch selected:
    (window, session, first turn, second turn)."""
    window = make_window(sample_project)
    session = window.session
    tree = session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    second = tree.child_ids(first)[0]
    window.workspace.select(second)
    return window, session, first, second


def test_undo_of_a_notes_edit_is_not_saved_again_and_can_be_redone(make_window, sample_project: Path,
                                                                   qtbot) -> None:
    window, session, first, turn = _two_turns(make_window, sample_project)
    inspector = window.workspace.inspector
    original = session.project.tree.node(turn).notes
    inspector.notes.setPlainText(original + "hello")
    inspector.commit_notes()
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.node(turn).notes == original + "hello", timeout=5000)
    window.actions_.undo.trigger()
    session.settle()
    qtbot.waitUntil(lambda: inspector.notes.toPlainText() == original, timeout=5000)
    assert session.project.tree.node(turn).notes == original
    assert window.actions_.redo.isEnabled(), "the undone edit can be redone"
    window.workspace.select(first)  # moving on saves nothing over the undo
    session.settle()
    assert session.project.tree.node(turn).notes == original
    window.workspace.select(turn)
    window.actions_.redo.trigger()
    session.settle()
    qtbot.waitUntil(lambda: inspector.notes.toPlainText() == original + "hello", timeout=5000)
    assert session.project.tree.node(turn).notes == original + "hello"


def test_a_line_and_a_duration_being_typed_stay_on_their_turn_when_a_menu_moves_on(make_window,
                                                                                 sample_project: Path,
                                                                                 qtbot) -> None:
    window, session, first, turn = _two_turns(make_window, sample_project)
    story = window.workspace.inspector.story
    first_story = session.project.tree.node(first).story
    row = story.add_dialogue_line()
    row.text.setText("Typed on turn 2")  # not finished: no Tab, no Enter
    story.duration.setValue(7.0)
    window.workspace.select(first)  # as Navigate > Previous turn does, without taking the focus
    session.settle()
    qtbot.wait(50)
    story.setFocus()  # the old row, gone, and the duration box lose the focus now
    qtbot.wait(50)
    session.settle()
    tree = session.project.tree
    assert [line.text for line in tree.node(turn).story.dialogue][-1] == "Typed on turn 2"
    assert tree.node(turn).story.duration == 7.0
    assert tree.node(first).story == first_story


def test_a_fork_copies_the_line_being_typed_and_leaves_it_on_its_turn(make_window, sample_project: Path,
                                                                    qtbot) -> None:
    window, session, _first, turn = _two_turns(make_window, sample_project)
    story = window.workspace.inspector.story
    row = story.add_dialogue_line()
    row.text.setText("Typed before the fork")
    window.actions_.fork.trigger()
    session.settle()
    qtbot.waitUntil(lambda: window.workspace.current_id != turn, timeout=5000)
    session.settle()
    tree = session.project.tree
    fork = window.workspace.current_id
    assert tree.node(fork).parent_id == tree.node(turn).parent_id
    assert tree.node(turn).story.dialogue[-1].text == "Typed before the fork"
    assert tree.node(fork).story.dialogue == tree.node(turn).story.dialogue


def test_a_refresh_while_a_line_is_typed_keeps_the_row_and_its_focus(make_window, sample_project: Path,
                                                                    qtbot) -> None:
    window, session, _first, turn = _two_turns(make_window, sample_project)
    inspector = window.workspace.inspector
    story = inspector.story
    lines_before = session.project.tree.node(turn).story.dialogue
    row = story.add_dialogue_line()
    qtbot.waitUntil(row.text.hasFocus, timeout=5000)
    qtbot.keyClicks(row.text, "Half typed")
    session.project.apply(SetNarration(turn, "Elsewhere, the bell rings."))  # another change to the turn
    session.settle()
    qtbot.waitUntil(lambda: story.narration.toPlainText() == "Elsewhere, the bell rings.", timeout=5000)
    inspector.show_node(session.project.tree, turn, keep_editor=True)  # as a finished generation does
    assert row in story.rows and row.text.hasFocus()
    qtbot.keyClicks(row.text, " and more")
    assert row.text.text() == "Half typed and more"
    assert session.project.tree.node(turn).story.dialogue == lines_before, "nothing saved before it is finished"


def test_passing_through_a_duration_keeps_its_own_decimals(make_window, sample_project: Path, qtbot) -> None:
    """The box shows a tenth of a second; a turn's 3.25 s is kept when the author only passes
    through the box or moves on, and changed when they type another value."""
    from studio.core.commands import SetDuration

    window, session, first, turn = _two_turns(make_window, sample_project)
    session.project.apply(SetDuration(turn, 3.25))
    session.settle()
    window.workspace.select(first)
    window.workspace.select(turn)
    story = window.workspace.inspector.story
    qtbot.waitUntil(lambda: story.duration.value() > 3.0, timeout=5000)
    story.duration.editingFinished.emit()  # Tab through the box
    window.workspace.select(first)
    session.settle()
    assert session.project.tree.node(turn).story.duration == 3.25
    window.workspace.select(turn)
    story.duration.setValue(4.5)
    story.duration.editingFinished.emit()
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.node(turn).story.duration == 4.5, timeout=5000)
