"""A change that fails to save because the project's database was damaged while open: the
window turns read-only, and the field shows what the project holds, not the typing as if it
were saved. The typing is not lost: the message quotes it and "Copy what I typed", on the
read-only line over the story, puts it on the clipboard, to paste into the copy.

Before, the instruction box went on showing the line typed (read-only now, so it looked
saved), and nothing said it was not. The damage here is real: bytes overwritten in the
middle of project.db."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import damage_database


def _open_on_a_turn(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    window.close_project("cancel")  # everything in project.db (closing empties the WAL file)
    assert window.open_project(sample_project), window.last_error
    tree = window.session.project.tree
    turn = tree.path_to(tree.leaves_under(tree.root_id)[0].id)[2].id
    window.workspace.select(turn, center=False)
    return window, turn


def test_an_instruction_that_failed_to_save_is_shown_as_stored_and_offered_to_copy(
        make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QApplication

    window, turn = _open_on_a_turn(make_window, sample_project)
    session, ws = window.session, window.workspace
    editor = ws.inspector.editor
    stored = editor.text()
    stored_motion = editor.motion.text()
    assert "jumps over the fence" not in stored

    damage_database(sample_project / "project.db")
    editor.motion.setText("jumps over the fence")
    typed = editor.text()
    editor.save_button.click()
    qtbot.waitUntil(lambda: session.read_only is not None, timeout=10_000)

    assert session.project.tree.node(turn).instruction.raw != typed  # not saved: the window holds the old line
    assert editor.motion.text() == stored_motion, "the failed change still shows as if it were saved"
    assert editor.text() == stored
    said = window.last_error.message
    assert "jumps over the fence" in said and "was not saved" in said and "Copy what I typed" in said, said

    bar = ws.read_only_bar
    assert bar.copy_typed is not None and bar.copy_typed.isVisible()
    QApplication.clipboard().clear()
    bar.copy_typed.click()
    assert QApplication.clipboard().text() == typed


def test_notes_that_failed_to_save_are_shown_as_stored_and_offered_to_copy(
        make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QApplication

    window, turn = _open_on_a_turn(make_window, sample_project)
    session, ws = window.session, window.workspace
    inspector = ws.inspector
    stored = session.project.tree.node(turn).notes

    damage_database(sample_project / "project.db")
    inspector.notes.setPlainText("Make her hesitate before the jump.")
    qtbot.waitUntil(lambda: session.read_only is not None, timeout=10_000)  # the notes save after a pause

    assert inspector.notes.toPlainText() == stored
    assert "Make her hesitate before the jump." in window.last_error.message
    QApplication.clipboard().clear()
    ws.read_only_bar.copy_typed.click()
    assert QApplication.clipboard().text() == "Make her hesitate before the jump."
