"""The dialogue lines' speaker lists offer a character added while the turn is on screen,
without another turn being selected first; what a line shows or is being typed stays."""

from __future__ import annotations

from pathlib import Path


def _speakers(row) -> list[str]:  # type: ignore[no-untyped-def]
    return [row.speaker.itemText(i) for i in range(row.speaker.count())]


def test_a_character_added_is_offered_in_the_lines_on_screen(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(turn)
    story = ws.inspector.story
    row = story.add_dialogue_line()
    row.text.setText("Good morning")
    story.commit_pending()
    qtbot.waitUntil(lambda: any(line.text == "Good morning"
                                for line in session.project.tree.nodes[turn].story.dialogue), timeout=5000)
    qtbot.wait(300)
    row = next(r for r in story.rows if r.line().text == "Good morning")
    typing = story.add_dialogue_line()  # a second line, being typed as the cast changes
    typing.speaker.setEditText("Narr")
    typing.text.setText("half a")
    assert "Mei" not in _speakers(row)

    ws.cast.add_character("Mei")
    session.settle()
    qtbot.waitUntil(lambda: any(m.name == "Mei" for m in session.project.tree.cast.values()), timeout=5000)
    qtbot.waitUntil(lambda: "Mei" in _speakers(row), timeout=5000)
    assert row in story.rows and row.line().text == "Good morning"
    assert "Mei" in _speakers(typing) and typing in story.rows
    assert typing.speaker.currentText() == "Narr" and typing.text.text() == "half a"
    assert ws.inspector.node_id == turn
