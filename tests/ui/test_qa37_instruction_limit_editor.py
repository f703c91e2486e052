"""The window's instruction editor counts the 2,000-character limit as the core does: in
characters as a reader sees them. A free text of 1,500 emoji with skin tones (3,000 code
points) is kept; a line over the limit is refused before it is sent, with the core's message
naming its count and the limit, and the typing stays in the editor."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.core.instruction import MAX_INSTRUCTION_CHARS, instruction_length, too_long_message

THUMB = "👍🏽"  # two code points, one character


def _editor(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    errors: list[object] = []
    window.show_error = errors.append  # type: ignore[method-assign]
    ws = window.workspace
    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(turn)
    editor = ws.inspector.editor
    for edit in editor.fields():
        edit.clear()
    editor.time.setCurrentIndex(0)
    editor.character.setText("Qiqi")
    editor.motion.setText("wave")
    editor.background.setText("park")
    return ws, editor, turn, errors


def test_1500_emoji_with_skin_tones_are_kept(make_window, sample_project: Path, qtbot) -> None:
    ws, editor, turn, errors = _editor(make_window, sample_project)
    editor.free_text.setText(THUMB * 1500)
    line = editor.text()
    assert len(line) > 3000 and instruction_length(line) < MAX_INSTRUCTION_CHARS
    assert editor.length_error() is None
    assert not editor.length_note.isVisibleTo(ws.inspector)
    assert f"({instruction_length(line):,} characters)" in editor.preview.text()  # the count the limit uses

    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.tree.nodes[turn].instruction.raw == line, timeout=10_000)
    assert errors == []


def test_a_line_over_the_limit_is_refused_naming_its_count(make_window, sample_project: Path, qtbot) -> None:
    ws, editor, turn, errors = _editor(make_window, sample_project)
    before = ws.tree.nodes[turn].instruction.raw
    editor.free_text.setText(THUMB * 1990)
    line = editor.text()
    length = instruction_length(line)
    assert length > MAX_INSTRUCTION_CHARS and len(line) == length + 1990
    over = length - MAX_INSTRUCTION_CHARS
    assert editor.length_note.isVisibleTo(ws.inspector)
    note = editor.length_note.text()
    assert note.startswith(too_long_message(length)), note
    assert f"Remove at least {over:,} characters from Free text (it holds 1,990 characters)" in note

    assert not editor.save_button.isEnabled(), "a line too long to keep can't be sent"
    assert "limit is 2,000" in editor.save_button.toolTip()  # the button says why
    editor._save()  # sent anyway (the keyboard's way): refused with the whole message
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    message = errors[0].message  # type: ignore[attr-defined]
    assert message.startswith(f"The instruction is {length:,} characters long; the limit is 2,000."), message
    assert ws.tree.nodes[turn].instruction.raw == before  # nothing kept of the refused line
    assert editor.text() == line  # and nothing of the typing lost

    editor.free_text.setText(THUMB * (1990 - over))  # cut as told, an emoji counted as one
    assert not editor.length_note.isVisibleTo(ws.inspector)
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.tree.nodes[turn].instruction.raw == editor.text(), timeout=10_000)
    assert instruction_length(ws.tree.nodes[turn].instruction.raw) == MAX_INSTRUCTION_CHARS
    assert len(errors) == 1
