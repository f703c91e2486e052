"""A script pasted into an instruction field (a scene heading, a line of dialogue, what
happens) was joined into one line of Free text without a word, and one take drew none of it.
The editor now says so and offers a turn of each line: a scene heading gives the turns after
it their Background and time, ``Name: "…"`` is said in the turn above it (its Story
section's Dialogue), as one Undo step; or the lines stay joined, as asked. A sentence wrapped
over lines in a document is joined as before, without a question."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox

from studio.core.story import DialogueLine

SCRIPT = ('INT. BAKERY - MORNING\nQiqi: "Good morning!"\nYuzu waves.\n\nEXT. PARK - DAY\n'
          "Qiqi runs to the park.\tShe laughs.")


def _paste_into_a_new_turn(window, qtbot, text: str):  # type: ignore[no-untyped-def]
    ws = window.workspace
    leaf = ws.tree.leaves_under(ws.tree.root_id)[0].id
    ws.select(leaf)
    ws.start_new_turn()
    editor = ws.inspector.editor
    editor.free_text.setFocus()
    editor.free_text.clear()
    QApplication.clipboard().setText(text)
    editor.free_text.paste()
    return ws, editor, leaf


def _button(box: QMessageBox, text: str):  # type: ignore[no-untyped-def]
    return next(button for button in box.buttons() if button.text() == text)


def test_a_pasted_script_is_offered_as_turns_and_made_so(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, editor, leaf = _paste_into_a_new_turn(window, qtbot, SCRIPT)
    qtbot.waitUntil(lambda: editor.script_offer is not None and editor.script_offer.isVisible(), timeout=5_000)
    box = editor.script_offer
    assert "You pasted 5 lines into Free text" in box.text()
    assert "scene heading" in box.informativeText() and "Dialogue" in box.informativeText()
    before = set(ws.tree.nodes)
    _button(box, "Make 3 turns").click()
    window.session.settle()
    qtbot.waitUntil(lambda: len(ws.tree.nodes) == len(before) + 3, timeout=10_000)
    first = ws.tree.child_ids(leaf)[-1]
    second = ws.tree.child_ids(first)[0]
    third = ws.tree.child_ids(second)[0]
    nodes = [ws.tree.node(node_id) for node_id in (first, second, third)]
    assert [node.instruction.background for node in nodes] == ["bakery", "bakery", "park"]
    assert [node.instruction.time_of_day for node in nodes] == ["morning", "morning", "day"]
    assert nodes[0].story.dialogue == (DialogueLine("Qiqi", "Good morning!"),)
    assert "Yuzu waves" in nodes[1].instruction.raw and not nodes[1].story.dialogue
    assert "Qiqi runs to the park. She laughs" in nodes[2].instruction.raw
    assert not any("INT." in node.instruction.raw or "Good morning" in node.instruction.raw for node in nodes)
    qtbot.waitUntil(lambda: ws.current_id == third, timeout=5_000)
    assert "Made 3 turns of the pasted lines" in window.status_label.text()
    window.actions_.undo.trigger()  # one edit: one Undo takes the three back
    window.session.settle()
    qtbot.waitUntil(lambda: set(ws.tree.nodes) == before, timeout=10_000)


def test_keep_as_one_line_leaves_the_lines_joined(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, editor, _leaf = _paste_into_a_new_turn(window, qtbot, SCRIPT)
    qtbot.waitUntil(lambda: editor.script_offer is not None and editor.script_offer.isVisible(), timeout=5_000)
    before = set(ws.tree.nodes)
    _button(editor.script_offer, "Keep as one line").click()
    window.session.settle()
    assert set(ws.tree.nodes) == before
    assert editor.free_text.text().startswith('INT. BAKERY - MORNING Qiqi: "Good morning!" Yuzu waves.')


def test_a_sentence_wrapped_over_lines_is_joined_without_a_question(make_window, sample_project: Path,
                                                                     qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    _ws, editor, _leaf = _paste_into_a_new_turn(window, qtbot, "Qiqi walks slowly\nalong the harbour wall")
    qtbot.wait(50)
    assert editor.script_offer is None
    assert editor.free_text.text() == "Qiqi walks slowly along the harbour wall"


def test_the_offer_lapses_once_the_field_is_written_again(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, editor, _leaf = _paste_into_a_new_turn(window, qtbot, SCRIPT)
    qtbot.waitUntil(lambda: editor.script_offer is not None and editor.script_offer.isVisible(), timeout=5_000)
    box = editor.script_offer
    editor.free_text.setText("Qiqi jumps.")  # the author wrote the turn instead
    before = set(ws.tree.nodes)
    _button(box, "Make 3 turns").click()
    window.session.settle()
    qtbot.wait(100)
    assert set(ws.tree.nodes) == before and editor.free_text.text() == "Qiqi jumps."
