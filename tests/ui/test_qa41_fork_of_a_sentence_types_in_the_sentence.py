"""Fork (F) of a turn written as one sentence puts the keyboard in that sentence, selected:
the alternative typed replaces it. Before, the keyboard went to the empty Character field,
and the new sentence typed there became the name of the turn's character ("Yuzu falls
asleep on the desk" drawn as a stranger in the library)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from studio.core.commands import EditInstruction
from studio.storage import Project
from tests.ui.keys import press_story_key

SENTENCE = "Qiqi reads a book in the library"
TYPED = "Yuzu falls asleep on the desk"


def _first_turn_as_a_sentence(project_path: Path) -> str:
    project = Project.open(project_path)
    try:
        first = project.tree.child_ids(project.tree.root_id)[0]
        project.apply(EditInstruction(first, SENTENCE))
        return str(first)
    finally:
        project.close()


def test_an_alternative_typed_after_fork_replaces_the_sentence(make_window, sample_project: Path, qtbot) -> None:
    first = _first_turn_as_a_sentence(sample_project)
    window = make_window(sample_project)
    window.session.service.pause()  # the jobs stay queued: this is about the typing
    ws, session = window.workspace, window.session
    ws.select(first)
    editor = ws.inspector.editor
    qtbot.waitUntil(lambda: ws.inspector.node_id == first, timeout=5000)
    assert editor.free_text.text() == SENTENCE and not editor.character.text() and not editor.motion.text()

    before = set(session.project.tree.nodes)
    press_story_key(window, qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: len(session.project.tree.nodes) == len(before) + 1, timeout=10_000)
    session.settle()
    fork = next(n for n in session.project.tree.nodes if n not in before)
    qtbot.waitUntil(lambda: ws.current_id == fork and editor.free_text.hasFocus(), timeout=5000)
    assert editor.free_text.selectedText() == SENTENCE  # typing replaces it

    qtbot.keyClicks(QApplication.focusWidget(), TYPED)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.node(fork).instruction.raw != SENTENCE, timeout=5000)
    instruction = session.project.tree.node(fork).instruction
    assert TYPED in instruction.raw and SENTENCE not in instruction.raw, instruction.raw
    assert TYPED not in (instruction.character or ""), instruction


def test_a_line_of_fields_still_puts_the_keyboard_in_its_motion(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    window.session.service.pause()
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first)
    editor = ws.inspector.editor
    qtbot.waitUntil(lambda: ws.inspector.node_id == first, timeout=5000)
    assert editor.character.text() and editor.motion.text()
    press_story_key(window, qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: ws.current_id != first and editor.motion.hasFocus(), timeout=5000)
    assert editor.motion.selectedText() == editor.motion.text()
