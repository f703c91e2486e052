"""Generate is off on the story's Start card, which has no instruction to generate (it said
"Nothing to generate" when pressed there), and its tooltip says why; it is on for a turn and
for a new turn being written under the start."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

JOB_TIMEOUT_MS = 120_000


def test_generate_is_off_on_the_start_and_says_why(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, generate = window.workspace, window.actions_.generate
    tree = window.session.project.tree
    assert ws.current_id == tree.root_id  # a project opens at its start
    assert not generate.isEnabled()
    assert "start of the story" in generate.toolTip()
    button = window.toolbar.widgetForAction(generate)
    assert button is not None and not button.isEnabled()

    turn = tree.child_ids(tree.root_id)[0]
    ws.select(turn)
    assert generate.isEnabled()
    assert generate.toolTip() == "Generate"  # its own name again
    ws.select(tree.root_id)
    assert not generate.isEnabled()

    messages: list[str] = []
    ws.message.connect(messages.append)
    window.actions_.new_turn.trigger()  # Enter on the start: a new turn is written under it
    assert ws.inspector.draft_parent == tree.root_id
    assert "empty" in generate.toolTip()  # (nothing written in it yet: the lead is a hint, not a value)
    ws.inspector.editor.set_text("Character: Qiqi; Background: day town")
    qtbot.keyClicks(ws.inspector.editor.motion, "wave")
    assert generate.isEnabled(), "a new turn under the start can be generated"
    before = set(tree.child_ids(tree.root_id))
    generate.trigger()
    window.session.settle()
    qtbot.waitUntil(lambda: len(window.session.project.tree.child_ids(tree.root_id)) == len(before) + 1,
                    timeout=10_000)
    assert not any(m.startswith("Nothing to generate") for m in messages)
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)

    ws.select(tree.root_id)
    window.actions_.new_turn.trigger()
    qtbot.keyClicks(ws.inspector.editor.motion, "jump")
    assert generate.isEnabled()
    qtbot.keyClick(ws.inspector.editor.motion, Qt.Key.Key_Escape)  # Esc drops the draft: back on the start
    assert ws.current_id == tree.root_id and ws.inspector.draft_parent is None
    assert not generate.isEnabled()


def test_ctrl_enter_on_the_start_says_why_nothing_is_generated(make_window, sample_project: Path, qtbot) -> None:
    """The action is off there, but its keys still answer (in the status bar) rather than do
    nothing; on a turn they generate as ever."""
    window = make_window(sample_project)
    ws = window.workspace
    ws.select(ws.tree.root_id)
    before = len(window.session.service.jobs())
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    qtbot.keyClick(ws.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert "Nothing to generate at the start of the story" in window.status_label.text()
    assert len(window.session.service.jobs()) == before

    turn = ws.tree.child_ids(ws.tree.root_id)[0]
    ws.select(turn)
    ws.view.setFocus()
    qtbot.keyClick(ws.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    window.session.settle()
    qtbot.waitUntil(lambda: len(window.session.service.jobs()) == before + 1, timeout=10_000)
    assert "Nothing to generate" not in window.status_label.text()

    window.close_project("cancel")
    window.status_label.setText("")
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # no project: nothing
    assert window.status_label.text() == ""
