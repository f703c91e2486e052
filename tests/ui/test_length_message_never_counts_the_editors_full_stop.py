"""The over-long instruction message counts what was typed, never the full stop the editor
adds itself: a free text of 5,000 characters "is 5,000 characters long" (it said 5,001) and
3,000 of them are to go (it said 3,001); a free text of exactly the limit is kept as typed."""

from __future__ import annotations

from pathlib import Path

from studio.core.instruction import MAX_INSTRUCTION_CHARS


def test_a_long_free_text_is_counted_as_typed(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    ws.select(ws.tree.child_ids(ws.tree.root_id)[0], center=False)
    editor = ws.inspector.editor
    for edit in editor.fields():
        edit.clear()
    editor.time.setCurrentIndex(0)
    editor.free_text.setText("x" * 5000)
    error = editor.length_error()
    assert error is not None
    assert "is 5,000 characters long" in error.message, error.message
    assert "Remove at least 3,000 characters from Free text (it holds 5,000 characters)" in error.message
    assert "period" not in error.hint and "the editor adds" not in error.hint, error.hint

    editor.free_text.setText("x" * MAX_INSTRUCTION_CHARS)  # exactly the limit
    assert editor.length_error() is None and editor.text() == "x" * MAX_INSTRUCTION_CHARS
    editor.free_text.setText("x" * 10)  # short lines still get their full stop
    assert editor.text() == "x" * 10 + "."
