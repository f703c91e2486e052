"""R, Shift+R and Fill generate from the instruction on screen, as Ctrl+Enter and Fork do.

The user replaced Motion, pressed Esc (the keyboard back on the tree) and pressed R: the new
take was made from the old line while the inspector went on showing the edit, and nothing
was saved or said. A fork's first generation was named a re-roll ("Re-rolling…", "Undo
Re-roll")."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

TIMEOUT_MS = 120_000


def _first_turn(window) -> str:  # type: ignore[no-untyped-def]
    tree = window.session.project.tree
    return str(tree.child_ids(tree.root_id)[0])


def _type_motion_then_back_to_tree(window, qtbot, node_id: str, motion: str) -> None:  # type: ignore[no-untyped-def]
    ws = window.workspace
    ws.select(node_id, center=False)
    field = ws.inspector.editor.motion
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, motion)
    ws.view.setFocus()  # Esc's way back: the edit stays on screen, unsaved
    assert motion in ws.inspector.editor.text()
    assert motion not in window.session.project.tree.nodes[node_id].instruction.raw


def _wait_idle(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=TIMEOUT_MS)


def _newest_take(window, node_id: str):  # type: ignore[no-untyped-def]
    takes = window.session.project.tree.takes_of(node_id)
    assert takes, "no take was made"
    return max(takes, key=lambda take: take.created_at)


def test_r_renders_the_motion_typed_and_saves_it(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    first = _first_turn(window)
    _type_motion_then_back_to_tree(window, qtbot, first, "angrily stomp")
    QTest.keyClick(ws.view, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: "edited" in window.status_text(), timeout=10_000)
    assert "turn 1" in window.status_text()
    assert "angrily stomp" in window.session.project.tree.nodes[first].instruction.raw
    _wait_idle(window, qtbot)
    assert "angrily stomp" in _newest_take(window, first).instruction_raw
    assert "angrily stomp" in ws.inspector.editor.text()
    # a second R re-rolls the saved line: nothing new to save, nothing said of an edit
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    QTest.keyClick(ws.view, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: bool(window.session.active_jobs()) or len(window.session.project.tree.takes_of(first)) == 2,
                    timeout=10_000)
    assert "edited" not in window.status_text()
    _wait_idle(window, qtbot)
    assert len(window.session.project.tree.takes_of(first)) == 2
    assert all("angrily stomp" in t.instruction_raw for t in window.session.project.tree.takes_of(first))


def test_undo_after_r_takes_the_saved_edit_back(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    first = _first_turn(window)
    before = window.session.project.tree.nodes[first].instruction.raw
    _type_motion_then_back_to_tree(window, qtbot, first, "angrily stomp")
    window.actions_.reroll.trigger()
    _wait_idle(window, qtbot)
    window.actions_.undo.trigger()  # the take
    qtbot.waitUntil(lambda: not window.session.project.tree.takes_of(first), timeout=10_000)
    window.actions_.undo.trigger()  # the edit R saved
    qtbot.waitUntil(lambda: window.session.project.tree.nodes[first].instruction.raw == before, timeout=10_000)


def test_shift_r_renders_the_typed_line_of_the_turn_it_starts_at(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    first = _first_turn(window)
    _type_motion_then_back_to_tree(window, qtbot, first, "slowly tiptoe")
    QTest.keyClick(ws.view, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)
    _wait_idle(window, qtbot)
    assert "slowly tiptoe" in window.session.project.tree.nodes[first].instruction.raw
    assert "slowly tiptoe" in _newest_take(window, first).instruction_raw


def test_fill_renders_the_typed_line_of_the_selected_turn(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    first = _first_turn(window)
    _type_motion_then_back_to_tree(window, qtbot, first, "happily skip")
    window.actions_.fill.trigger()
    _wait_idle(window, qtbot)
    assert "happily skip" in _newest_take(window, first).instruction_raw


def test_a_line_too_long_queues_nothing_and_stays_typed(make_window, sample_project: Path, qtbot) -> None:
    from studio.core.instruction import MAX_INSTRUCTION_CHARS

    window = make_window(sample_project)
    ws = window.workspace
    first = _first_turn(window)
    errors: list[object] = []
    ws.error.connect(errors.append)
    ws.select(first, center=False)
    ws.inspector.editor.free_text.setText("x" * (MAX_INSTRUCTION_CHARS + 10))
    ws.view.setFocus()
    window.actions_.reroll.trigger()
    qtbot.wait(300)
    assert errors, "the refusal is said"
    assert not window.session.active_jobs() and not window.session.project.tree.takes_of(first)
    assert "x" * 50 in ws.inspector.editor.text()


def test_a_forks_first_generation_is_named_generate_not_reroll(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    first = _first_turn(window)
    ws.select(first, center=False)
    window.actions_.reroll.trigger()
    _wait_idle(window, qtbot)
    window.actions_.fork.trigger()
    qtbot.waitUntil(lambda: ws.current_id != first, timeout=10_000)
    fork = ws.current_id
    ws.inspector.editor.motion.setText("quickly run")
    qtbot.waitUntil(window.actions_.generate.isEnabled, timeout=10_000)  # follows the line typed
    messages: list[str] = []
    ws.message.connect(messages.append)
    window.actions_.generate.trigger()
    qtbot.waitUntil(lambda: any("Generating" in m or "Re-rolling" in m for m in messages), timeout=10_000)
    assert not any("Re-rolling" in m for m in messages), messages
    _wait_idle(window, qtbot)
    assert window.session.project.tree.takes_of(fork)
    qtbot.waitUntil(lambda: "Re-roll" not in window.actions_.undo.text(), timeout=5_000)
    assert "Generate" in window.actions_.undo.text()
    job = next(j for j in window.session.service.jobs(include_finished=True) if j.node_id == fork)
    assert ws.describe_job(job).startswith("Generate turn 1 · ")
