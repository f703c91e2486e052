"""Narration typed while a take of the turn lands is saved as one undo step, after the pause
in the typing: the inspector's redraw for the take saved what was typed so far (a branch
being generated cut the typing into steps wherever a take landed, mid-word)."""

from __future__ import annotations

from pathlib import Path

from tests.ui.rerolled_takes import done_with_clips

MAX_KEYS = 400


def test_narration_typed_through_a_landing_take_is_one_undo_step(make_window, sample_project: Path,
                                                                  qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    before = tree.node(leaf).story.narration
    ws.select(leaf, center=False)
    story = ws.inspector.story
    story.narration.setFocus()
    qtbot.waitUntil(story.narration.hasFocus, timeout=5000)
    story.narration.moveCursor(story.narration.textCursor().MoveOperation.End)
    qtbot.keyClicks(story.narration, " Rain")
    ws.reroll(leaf)
    for _ in range(MAX_KEYS):  # typing on, a key at a time, until the take has landed and been shown
        qtbot.keyClicks(story.narration, "a")
        qtbot.wait(60)
        if ws.inspector.takes.tiles:
            break
    assert ws.inspector.takes.tiles and done_with_clips(session, leaf)
    qtbot.keyClicks(story.narration, " falls.")
    typed = story.narration.toPlainText().strip()
    qtbot.waitUntil(lambda: session.project.tree.node(leaf).story.narration == typed, timeout=5000)
    session.settle()
    qtbot.waitUntil(lambda: window.actions_.undo.text() == "&Undo Edit narration", timeout=5000)

    window.actions_.undo.trigger()  # one step takes the whole typing back
    session.settle()
    assert session.project.tree.node(leaf).story.narration == before
    qtbot.waitUntil(lambda: story.narration.toPlainText() == before, timeout=5000)
    assert window.actions_.undo.text() == "&Undo Re-roll"
