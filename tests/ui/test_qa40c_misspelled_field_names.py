"""A misspelled field name in the instruction editor ("Backgroud: day park", "Motoin: dance")
is said while it is typed, and Generate or Re-roll of that line is refused with the command
line's message, the line kept as typed. Before, the take was drawn without the field (the
previous place for a misspelled Background), with nothing said. A sentence with a colon
("Qiqi says: hello") is no field name: it generates as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from studio.core.field_names import FIELD_NAMES


def _window(make_window: Any, sample_project: Path) -> tuple[Any, Any, list[Any]]:
    window = make_window(sample_project)
    ws = window.workspace
    errors: list[Any] = []
    ws.error.connect(errors.append)
    return window, ws, errors


def _draft_under_first_turn(ws: Any, qtbot: Any) -> str:
    parent = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(parent)
    ws.start_new_turn()
    qtbot.waitUntil(lambda: ws.inspector.draft_parent == parent, timeout=5000)
    return str(parent)


def _type(qtbot: Any, edit: Any, text: str) -> None:
    edit.setFocus(Qt.FocusReason.OtherFocusReason)
    edit.selectAll()
    qtbot.keyClicks(edit, text)


def _counts(window: Any, ws: Any) -> tuple[int, int, int]:
    tree = ws.tree
    return len(tree.nodes), len(tree.takes), len(window.session.service.jobs())


def test_a_misspelled_field_name_is_said_while_typing_and_generate_makes_nothing(
        make_window, sample_project: Path, qtbot) -> None:
    window, ws, errors = _window(make_window, sample_project)
    parent = _draft_under_first_turn(ws, qtbot)
    editor = ws.inspector.editor
    before = _counts(window, ws)

    _type(qtbot, editor.character, "Qiqi")
    _type(qtbot, editor.motion, "run")
    assert not editor.field_name_note.isVisible()
    _type(qtbot, editor.free_text, "Backgroud: day park")
    typed = editor.text()
    assert "Backgroud: day park" in typed

    note = editor.field_name_note
    assert note.isVisible(), "the misspelled field name is not said while typing"
    assert "'Backgroud:'" in note.text() and FIELD_NAMES in note.text()
    assert not editor.generate_button.isEnabled()
    assert editor.generate_button.toolTip() == note.text()
    generate = window.actions_.generate
    assert not generate.isEnabled() and generate.toolTip() == note.text()
    assert editor.save_button.isEnabled(), "the line may still be kept, to be fixed later"

    qtbot.keyClick(editor.free_text, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert "'Backgroud:'" in window.status_label.text()
    editor._generate()  # sent anyway (the editor's own Ctrl+Enter): refused, with the same words
    assert [error.message for error in errors] == [note.text()]
    window.session.settle()
    qtbot.wait(100)
    assert _counts(window, ws) == before, "a turn, take or job was made from the misspelled line"
    assert ws.inspector.draft_parent == parent and editor.text() == typed, "the typing was lost"

    editor.free_text.clear()  # the spelling fixed: the place goes in its own box
    _type(qtbot, editor.background, "day park")
    assert not editor.field_name_note.isVisible()
    assert editor.generate_button.isEnabled() and generate.isEnabled()
    qtbot.mouseClick(editor.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(ws.tree.nodes) == before[0] + 1, timeout=10_000)
    qtbot.waitUntil(lambda: len(window.session.service.jobs()) == before[2] + 1, timeout=10_000)
    (made,) = [node for node in ws.tree.nodes.values() if node.parent_id == parent
               and node.instruction.character == "Qiqi" and node.instruction.motion == "run"]
    assert made.instruction.background == "park" and made.instruction.time_of_day == "day"
    assert len(errors) == 1


def test_re_roll_of_a_turn_whose_line_is_misspelled_is_refused_and_the_typing_stays(
        make_window, sample_project: Path, qtbot) -> None:
    window, ws, errors = _window(make_window, sample_project)
    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(turn)
    editor = ws.inspector.editor
    stored = ws.tree.nodes[turn].instruction.raw
    before = _counts(window, ws)
    _type(qtbot, editor.free_text, "Motoin: dance")
    typed = editor.text()
    assert "'Motoin:'" in editor.field_name_note.text() and editor.field_name_note.isVisible()

    window.actions_.reroll.trigger()
    assert len(errors) == 1 and "'Motoin:'" in errors[0].message and FIELD_NAMES in errors[0].message
    window.session.settle()
    qtbot.wait(100)
    assert _counts(window, ws) == before, "a take or job was made from the misspelled line"
    assert ws.tree.nodes[turn].instruction.raw == stored
    assert editor.text() == typed, "the typing was lost"


def test_a_sentence_with_a_colon_generates_without_a_warning(make_window, sample_project: Path, qtbot) -> None:
    window, ws, errors = _window(make_window, sample_project)
    parent = _draft_under_first_turn(ws, qtbot)
    editor = ws.inspector.editor
    before = _counts(window, ws)
    _type(qtbot, editor.free_text, "Qiqi says: hello")
    assert not editor.field_name_note.isVisible() and editor.field_name_note.text() == ""
    assert editor.generate_button.isEnabled() and window.actions_.generate.isEnabled()

    qtbot.mouseClick(editor.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(ws.tree.nodes) == before[0] + 1, timeout=10_000)
    qtbot.waitUntil(lambda: len(window.session.service.jobs()) == before[2] + 1, timeout=10_000)
    (made,) = [node for node in ws.tree.nodes.values()
               if node.parent_id == parent and "Qiqi says: hello" in node.instruction.raw]
    assert not made.instruction.extra
    assert not errors
