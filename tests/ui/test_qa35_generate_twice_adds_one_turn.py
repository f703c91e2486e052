"""A new turn sent twice before it lands (QA: Ctrl+Enter pressed twice, or Generate clicked
twice, in a new turn's editor added the same turn twice, each with a take of its own; Save
text clicked twice added two turns without a take). The second press now says the turn is on
its way, and the next new turn, once this one has landed, is added as ever."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.ui.workspace import NEW_TURN_ON_ITS_WAY
from tests.ui.keys import press_story_key

TIMEOUT_MS = 60_000


def _draft_under(window, qtbot, parent: str, motion: str):  # type: ignore[no-untyped-def]
    """Enter on ``parent``, a motion typed in the new turn's editor: the editor."""
    window.workspace.select(parent)
    press_story_key(window, qtbot, Qt.Key.Key_Return)
    editor = window.workspace.inspector.editor
    assert window.workspace.inspector.draft_parent == parent
    editor.motion.clear()
    qtbot.keyClicks(editor.motion, motion)
    return editor


def _turns_under(window, parent: str) -> list[str]:  # type: ignore[no-untyped-def]
    tree = window.session.project.tree
    return [tree.nodes[child].instruction.raw for child in tree.child_ids(parent)]


def test_ctrl_enter_twice_and_generate_clicked_twice_add_one_turn(make_window, sample_project: Path,
                                                                  qtbot) -> None:
    window = make_window(sample_project)
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id

    editor = _draft_under(window, qtbot, leaf, "jump")
    messages: list[str] = []
    window.workspace.message.connect(messages.append)
    qtbot.keyClick(editor.motion, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor.motion, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert NEW_TURN_ON_ITS_WAY in messages  # the second press says why nothing more happens
    qtbot.waitUntil(lambda: not window.session.active_jobs() and window.workspace.inspector.draft_parent is None,
                    timeout=TIMEOUT_MS)
    qtbot.wait(200)  # a second turn, had it been sent, lands with the first
    tree = window.session.project.tree
    (jumped,) = tree.child_ids(leaf)
    assert tree.nodes[jumped].instruction.raw == "Motion: jump."
    assert len(tree.takes_of(jumped)) == 1
    assert window.workspace.current_id == jumped

    # the guard let go once the turn landed: the next new turn is added, once, with two clicks
    editor = _draft_under(window, qtbot, jumped, "wave")
    qtbot.mouseClick(editor.generate_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(editor.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.session.active_jobs() and window.workspace.inspector.draft_parent is None,
                    timeout=TIMEOUT_MS)
    qtbot.wait(200)
    assert _turns_under(window, jumped) == ["Motion: wave."]
    (waved,) = window.session.project.tree.child_ids(jumped)
    assert len(window.session.project.tree.takes_of(waved)) == 1
    assert window.last_error is None


def test_save_text_clicked_twice_adds_one_turn(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    editor = _draft_under(window, qtbot, leaf, "stretch")
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.workspace.inspector.draft_parent is None, timeout=10_000)
    qtbot.wait(200)
    assert _turns_under(window, leaf) == ["Motion: stretch."]
    assert window.actions_.undo.text() == "&Undo New turn"


def test_a_refused_new_turn_can_be_sent_again_once_fixed(make_window, sample_project: Path, qtbot) -> None:
    """The writer refuses a field given twice; the draft keeps its typing, and Generate after
    the fix is not taken for a second press."""
    window = make_window(sample_project)
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    editor = _draft_under(window, qtbot, leaf, "jump")
    editor.free_text.setText("Motion: wave.")  # the motion given twice: refused by the document
    qtbot.mouseClick(editor.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.last_error is not None, timeout=10_000)
    assert window.workspace.inspector.draft_parent == leaf
    assert _turns_under(window, leaf) == []
    window.last_error = None
    editor.free_text.clear()
    qtbot.mouseClick(editor.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _turns_under(window, leaf) == ["Motion: jump."],
                    timeout=TIMEOUT_MS)
