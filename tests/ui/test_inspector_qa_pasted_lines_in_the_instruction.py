"""Text pasted into the instruction's line fields from a document (several lines, or a table's
tab-separated cells) kept its line breaks and tabs, invisible in the one-line box: Save text
and Generate were then refused ("The instruction holds a control character (U+000A...) at
character 40"), counting characters in a composed line the author never sees. A line field
now holds one line: pasted breaks and tabs become spaces, as in a dialogue line."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


def test_a_pasted_multi_line_motion_saves_as_one_line(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    errors: list[str] = []
    window.show_error = lambda error: errors.append(error.message)
    ws = window.workspace
    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(turn)
    editor = ws.inspector.editor
    editor.motion.setFocus()
    editor.motion.selectAll()
    QApplication.clipboard().setText("gently sit\r\non the\trailing\u2028at last")
    editor.motion.paste()
    assert editor.motion.text() == "gently sit on the railing at last"
    editor.free_text.setText("waving\nto the\tcrowd")
    assert editor.free_text.text() == "waving to the crowd"
    editor.time.setEditText("late\tnight")
    assert editor.time.currentText() == "late night"

    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    window.session.settle()
    qtbot.waitUntil(lambda: "sit on the railing at last" in ws.tree.nodes[turn].instruction.raw, timeout=10_000)
    assert errors == []
    assert "waving to the crowd" in ws.tree.nodes[turn].instruction.raw


def test_typing_goes_on_where_the_paste_ended(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    ws.select(ws.tree.child_ids(ws.tree.root_id)[0])
    editor = ws.inspector.editor
    editor.camera.setFocus()
    editor.camera.clear()
    QApplication.clipboard().setText("slow\norbit")
    editor.camera.paste()
    qtbot.keyClicks(editor.camera, " left")
    assert editor.camera.text() == "slow orbit left"
