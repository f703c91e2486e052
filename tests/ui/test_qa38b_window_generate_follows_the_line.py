"""The window's Generate (toolbar, Turn menu, Ctrl+Enter) follows the rule of the inspector's
Generate button: off for an empty instruction or one over the limit, its tooltip the
button's reason; Ctrl+Enter then says why in the status bar.

Before, the button was off and said why while the action stayed on: Ctrl+Enter on an empty
line said only "Nothing to generate", and on a line too long it opened an error box."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton

from studio.core.instruction import MAX_INSTRUCTION_CHARS
from studio.ui.inspector.instruction_editor import EMPTY_TIP


def _on_a_turn(make_window: Any, sample_project: Path) -> tuple[Any, Any, list[object]]:
    window = make_window(sample_project)
    ws = window.workspace
    errors: list[object] = []
    ws.error.connect(errors.append)
    ws.select(ws.tree.child_ids(ws.tree.root_id)[0])
    assert ws.inspector.editor.text().strip(), "the sample's first turn has an instruction"
    return window, ws, errors


def _clear(editor: Any) -> None:
    """Every box of the instruction emptied, as the user would delete them one by one."""
    for field in editor.fields():
        field.clear()
    editor.time.setCurrentText("")
    assert editor.text() == ""


def _toolbar_button(window: Any) -> QToolButton:
    (button,) = [b for b in window.findChildren(QToolButton) if b.defaultAction() is window.actions_.generate]
    return button


def _ctrl_enter(qtbot: Any, widget: Any) -> None:
    widget.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(widget.hasFocus, timeout=5000)
    qtbot.keyClick(widget, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)


def test_generate_is_off_for_an_empty_line_and_ctrl_enter_says_why(make_window, sample_project: Path,
                                                                   qtbot) -> None:
    window, ws, errors = _on_a_turn(make_window, sample_project)
    generate, editor = window.actions_.generate, ws.inspector.editor
    assert generate.isEnabled() and _toolbar_button(window).isEnabled()
    jobs = len(window.session.service.jobs())

    _clear(editor)
    assert not editor.generate_button.isEnabled()
    assert not generate.isEnabled() and not _toolbar_button(window).isEnabled()
    assert generate.toolTip() == editor.generate_button.toolTip() == EMPTY_TIP

    for where in (editor.motion, ws.view):  # typing in the inspector, or back in the tree
        window.status_label.setText("")
        _ctrl_enter(qtbot, where)
        assert window.status_label.text() == EMPTY_TIP, where
    assert not errors and len(window.session.service.jobs()) == jobs

    editor.motion.setText("walks to the window")
    assert generate.isEnabled() and generate.toolTip() != EMPTY_TIP  # its name again


def test_generate_is_off_for_a_line_too_long_and_ctrl_enter_says_why_without_a_box(
        make_window, sample_project: Path, qtbot) -> None:
    window, ws, errors = _on_a_turn(make_window, sample_project)
    generate, editor = window.actions_.generate, ws.inspector.editor
    _clear(editor)
    editor.free_text.setText("y" * (MAX_INSTRUCTION_CHARS + 1))  # one too many
    assert not editor.generate_button.isEnabled()
    reason = editor.generate_button.toolTip()
    assert "Remove at least 1 character from Free text" in reason
    assert not generate.isEnabled() and generate.toolTip() == reason

    _ctrl_enter(qtbot, editor.free_text)
    assert "Remove at least 1 character from Free text" in window.status_label.text()
    assert editor.free_text.hasFocus(), "the keyboard stays in the line to shorten"
    assert not errors, "no box over the window: the status bar says it"
    assert not window.session.active_jobs()

    editor.free_text.setText("y" * MAX_INSTRUCTION_CHARS)  # fits now: the editor's full stop is left off
    assert generate.isEnabled() and editor.generate_button.isEnabled()


def test_the_start_still_says_there_is_nothing_to_generate(make_window, sample_project: Path, qtbot) -> None:
    """The rule of the start is kept, its reason ended once (not "story..")."""
    window = make_window(sample_project)
    ws = window.workspace
    ws.select(ws.tree.root_id)
    assert not window.actions_.generate.isEnabled()
    _ctrl_enter(qtbot, ws.view)
    text = window.status_label.text()
    assert text.startswith("Nothing to generate at the start of the story") and not text.endswith(".."), text
