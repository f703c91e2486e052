"""The dialogue editor refuses a speaker's name holding a zero-width space: "Qi", U+200B, "qi"
shows as "Qiqi" in the editor, on sheets and in subtitles, yet was stored as another speaker.
The warning names the character and its position; the turn's lines stay as they were."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt


def test_a_speaker_with_a_zero_width_space_is_refused_in_the_editor(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                     qtbot) -> None:
    window = make_window(sample_project)
    errors: list[str] = []
    window.show_error = lambda error: errors.append(error.message)  # type: ignore[method-assign]
    ws, session = window.workspace, window.session
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    before = tree.node(turn).story.dialogue
    ws.select(turn)
    story = ws.inspector.story
    row = story.add_dialogue_line()
    row.speaker.setCurrentText("Qi\u200bqi")
    qtbot.keyClicks(row.text, "Hello!")
    qtbot.keyClick(row.text, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    session.settle()
    assert "U+200B, a zero-width space at character 3" in errors[0], errors
    assert session.project.tree.node(turn).story.dialogue == before
