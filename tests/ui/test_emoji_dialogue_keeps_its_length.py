"""A dialogue line or speaker of emoji (or any character past U+FFFF) keeps every character the
document allows: the boxes counted length as Qt does (an emoji twice), so a stored line of 600
emoji, well within a line's 1,000 characters, showed cut to 500 and leaving the turn saved it
cut, without the author touching it."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import SetDialogue
from studio.core.story import MAX_LINE_CHARS, MAX_SPEAKER_CHARS, DialogueLine


def test_an_emoji_line_survives_being_shown_and_left(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    session, ws = window.session, window.workspace
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    other = tree.child_ids(turn)[0]
    lines = (DialogueLine("🐱" * 40, "😀" * 600), DialogueLine("Qiqi", "𠀋" * 700))
    ws.apply(SetDialogue(turn, lines))
    session.settle()
    ws.select(turn)
    story = ws.inspector.story
    qtbot.waitUntil(lambda: len(story.rows) == 2, timeout=5000)
    assert [row.line() for row in story.rows] == list(lines)

    ws.select(other)  # moving on saves what the rows hold
    session.settle()
    qtbot.wait(50)
    session.settle()
    assert session.project.tree.node(turn).story.dialogue == lines


def test_an_emoji_line_is_held_to_what_a_line_may_hold(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    ws.select(tree.child_ids(tree.root_id)[0])
    row = ws.inspector.story.add_dialogue_line()
    row.text.setText("😀" * (MAX_LINE_CHARS + 5))
    assert row.text.text() == "😀" * MAX_LINE_CHARS
    line_edit = row.speaker.lineEdit()
    assert line_edit is not None
    line_edit.setText("🐱" * (MAX_SPEAKER_CHARS + 3))
    assert row.speaker.currentText() == "🐱" * MAX_SPEAKER_CHARS


def test_a_pasted_line_of_several_lines_becomes_one(make_window, sample_project: Path, qtbot) -> None:
    """Text of several lines pasted into a dialogue line was kept in the box, then refused
    when saved ("holds a line break"): a spoken line is one line, so the breaks become spaces."""
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    ws.select(turn)
    row = ws.inspector.story.add_dialogue_line()
    row.text.insert("Wait for me,\nI'm coming!\r\n")  # as a paste inserts it
    assert row.text.text() == "Wait for me, I'm coming!"
    ws.select(tree.child_ids(turn)[0])  # moving on saves it
    session.settle()
    qtbot.waitUntil(lambda: any(line.text == "Wait for me, I'm coming!"
                                for line in session.project.tree.node(turn).story.dialogue), timeout=5000)
