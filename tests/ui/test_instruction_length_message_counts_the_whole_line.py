"""The instruction editor's length message counts the line the limit applies to and says, in
the editor's terms, how much to remove and from which field. (QA: a free text of exactly
2,000 characters was refused as "2,001 characters long": the closing period the editor
adds was counted, and nothing told the user so, nor where to cut. The editor's own full stop
is now left off a line it would take over the limit, and counts in no message.)"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.core.instruction import MAX_INSTRUCTION_CHARS


def _window(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    errors: list[object] = []
    window.show_error = errors.append  # type: ignore[method-assign]
    return window, window.workspace, errors


def test_a_draft_over_the_limit_counts_only_what_was_typed(make_window, sample_project: Path, qtbot) -> None:
    _, ws, errors = _window(make_window, sample_project)
    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(turn)
    ws.start_new_turn()
    editor = ws.inspector.editor
    for edit in editor.fields():
        edit.clear()
    editor.time.setCurrentIndex(0)  # the blank time
    typed = "あ" * (MAX_INSTRUCTION_CHARS + 1)  # one over the limit, as the user counts it
    editor.free_text.setText(typed)
    assert len(editor.text()) == MAX_INSTRUCTION_CHARS + 1  # no closing period of the editor's on top
    assert editor.length_note.isVisibleTo(ws.inspector)
    assert "Remove at least 1 character from Free text" in editor.length_note.text()

    before = set(ws.tree.nodes)
    assert not editor.save_button.isEnabled(), "a line too long to keep can't be sent"
    assert "limit is 2,000" in editor.save_button.toolTip()  # the button says why
    editor._save()  # sent anyway (the keyboard's way): refused with the whole message
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    error = errors[0]
    assert f"{MAX_INSTRUCTION_CHARS + 1:,} characters long" in error.message  # type: ignore[attr-defined]
    assert "Remove at least 1 character from Free text" in error.message  # type: ignore[attr-defined]
    assert "the editor adds" not in error.hint and "period" not in error.hint  # type: ignore[attr-defined]

    editor.free_text.setText(typed[:-1])  # what the message said: one character less
    assert not editor.length_note.isVisibleTo(ws.inspector)
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(ws.tree.nodes) == len(before) + 1, timeout=10_000)
    (added,) = set(ws.tree.nodes) - before
    # exactly the limit: kept as typed, the editor's full stop left off rather than counted against it
    assert ws.tree.nodes[added].instruction.raw == typed[:-1]
    assert len(errors) == 1


def test_a_turn_says_which_field_to_cut_and_the_cut_fits(make_window, sample_project: Path, qtbot) -> None:
    window, ws, errors = _window(make_window, sample_project)
    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(turn)
    editor = ws.inspector.editor
    editor.motion.setText("走る " * 300)  # 900 characters, trailing space dropped
    editor.free_text.setText("🌸" * 1500)
    line = editor.text()
    over = len(line) - MAX_INSTRUCTION_CHARS
    assert over > 1
    ws.view.setFocus()
    generate = window.actions_.generate  # Ctrl+Enter from the tree: off, saying why
    assert not generate.isEnabled()
    assert "limit is 2,000" in generate.toolTip()
    assert f"Remove at least {over:,} characters from Free text (it holds 1,500 characters)" in generate.toolTip()
    assert not window.session.active_jobs(), "nothing was generated from a line too long to keep"

    editor.free_text.setText("🌸" * (1500 - over))  # cut as told, counting an emoji as one
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.tree.nodes[turn].instruction.raw == editor.text(), timeout=10_000)
    assert len(ws.tree.nodes[turn].instruction.raw) == MAX_INSTRUCTION_CHARS
    assert errors == []


def test_no_single_field_long_enough_lists_the_fields(make_window, sample_project: Path, qtbot) -> None:
    _, ws, errors = _window(make_window, sample_project)
    ws.select(ws.tree.child_ids(ws.tree.root_id)[0])
    editor = ws.inspector.editor
    editor.character.setText("c" * 800)
    editor.motion.setText("m" * 900)
    editor.time.setCurrentIndex(0)
    editor.background.setText("b" * 850)
    editor.camera.clear()
    editor.free_text.setText("f" * 900)
    assert not editor.generate_button.isEnabled(), "a line too long to keep can't be sent"
    assert "limit is 2,000" in editor.generate_button.toolTip()  # the button says why
    editor._generate()  # sent anyway (the keyboard's way): refused with the whole message
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    message = errors[0].message  # type: ignore[attr-defined]
    over = len(editor.text()) - MAX_INSTRUCTION_CHARS
    assert over > 900
    assert (f"Remove at least {over:,} characters across the fields "
            "(Motion 900, Free text 900, Background 850, Character 800)") in message


def test_moving_on_from_a_line_too_long_says_where_to_cut(make_window, sample_project: Path, qtbot) -> None:
    window, ws, errors = _window(make_window, sample_project)
    first = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(first)
    stored = ws.tree.nodes[first].instruction.raw
    ws.inspector.editor.free_text.setText("ذهب إلى السوق " * 150)  # 2,100 characters of Arabic
    ws.select(ws.tree.child_ids(first)[0])  # moving on keeps an edit, unless too long to keep
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    message = errors[0].message  # type: ignore[attr-defined]
    assert message.startswith("Your edit of turn 1 was not kept.")
    assert "from Free text (it holds 2,099 characters)" in message
    window.session.settle()
    assert ws.tree.nodes[first].instruction.raw == stored


def test_a_fork_of_a_line_too_long_says_where_to_cut_and_keeps_it(make_window, sample_project: Path,
                                                                   qtbot) -> None:
    window, ws, errors = _window(make_window, sample_project)
    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(turn)
    editor = ws.inspector.editor
    editor.free_text.setText("x" * MAX_INSTRUCTION_CHARS)
    typed = editor.text()
    count = len(ws.tree.nodes)
    ws.view.setFocus()
    qtbot.keyClick(ws.view, Qt.Key.Key_F)  # the fork would carry the typed line
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    assert "from Free text (it holds 2,000 characters)" in errors[0].message  # type: ignore[attr-defined]
    window.session.settle()
    assert len(ws.tree.nodes) == count and ws.current_id == turn
    assert editor.text() == typed, "the typing to shorten is gone"


def test_ctrl_enter_on_a_line_too_long_leaves_the_keyboard_in_the_field(make_window, sample_project: Path,
                                                                        qtbot) -> None:
    window, ws, errors = _window(make_window, sample_project)
    ws.select(ws.tree.child_ids(ws.tree.root_id)[0])
    editor = ws.inspector.editor
    editor.free_text.setText("y" * MAX_INSTRUCTION_CHARS)
    editor.free_text.setFocus()
    qtbot.waitUntil(editor.free_text.hasFocus, timeout=5000)
    qtbot.keyClick(editor.free_text, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "Remove at least" in window.status_text(), timeout=10_000)  # said, not a box
    assert errors == [], "no message box for a key pressed while Generate is off"
    assert editor.free_text.hasFocus(), "the focus left the line to shorten"
    assert not window.session.active_jobs()
