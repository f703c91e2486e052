"""A cast rename that changes the selected turn's instruction keeps the user's unsaved typing
in the inspector (renamed too), rather than putting the renamed stored line over it; a line
not edited shows the renamed turn as before. (QA: the typing was replaced and lost.)"""

from __future__ import annotations

from pathlib import Path


def _turn_naming_a_character(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    from studio.core.commands import turns_naming

    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    acting = next(m.name for m in tree.cast.values() if turns_naming(tree, m.name))
    turn = next(n.id for n in turns_naming(tree, acting) if n.instruction.character == acting)
    ws.select(turn)
    ws.confirm = lambda title, text: True  # type: ignore[method-assign]
    messages: list[str] = []
    ws.message.connect(messages.append)
    return window, ws, turn, acting, messages


def _rename(window, qtbot, acting: str, name: str) -> None:  # type: ignore[no-untyped-def]
    panel = window.workspace.cast
    panel.select_character(acting)
    panel.ask_name = lambda current: name  # type: ignore[method-assign]
    panel.rename_selected()
    window.session.settle()
    qtbot.waitUntil(lambda: any(m.name == name for m in window.session.project.tree.cast.values()), timeout=5000)
    qtbot.wait(300)  # the inspector's redraw of the turn


def test_a_rename_keeps_the_typed_instruction_and_renames_it(make_window, sample_project: Path, qtbot) -> None:
    window, ws, turn, acting, messages = _turn_naming_a_character(make_window, sample_project)
    editor = ws.inspector.editor
    editor.motion.setText("waves goodbye")
    editor.free_text.setText(f"{acting} smiles")
    _rename(window, qtbot, acting, "Hoshi")
    assert ws.tree.nodes[turn].instruction.character == "Hoshi"
    assert editor.motion.text() == "waves goodbye", "the typing was replaced by the renamed stored line"
    assert editor.character.text() == "Hoshi" and editor.free_text.text() == "Hoshi smiles"
    assert any("Hoshi" in m and "unsaved" in m for m in messages), messages

    typed = editor.text()
    other = next(n for n in ws.tree.nodes if n != turn and not ws.tree.nodes[n].is_root)
    ws.select(other)  # moving on keeps the typing, as ever
    window.session.settle()
    qtbot.waitUntil(lambda: window.session.project.tree.nodes[turn].instruction.raw == typed, timeout=5000)


def test_a_rename_that_would_make_the_typing_too_long_keeps_it_as_typed(make_window, sample_project: Path,
                                                                       qtbot) -> None:
    window, ws, _turn, acting, messages = _turn_naming_a_character(make_window, sample_project)
    editor = ws.inspector.editor
    room = 1990 - len(editor.text())  # the line fits; with a longer name in every word it does not
    editor.free_text.setText(" ".join([acting] * (room // (len(acting) + 1))))
    typed = editor.field_texts()
    assert len(editor.text()) <= 2000
    _rename(window, qtbot, acting, "Hoshi Nakamura-Takahashi")
    assert editor.field_texts() == typed
    assert any("kept as typed" in m for m in messages), messages


def test_a_rename_shows_the_renamed_line_when_nothing_was_typed(make_window, sample_project: Path, qtbot) -> None:
    window, ws, turn, acting, messages = _turn_naming_a_character(make_window, sample_project)
    editor = ws.inspector.editor
    _rename(window, qtbot, acting, "Hoshi")
    qtbot.waitUntil(lambda: editor.character.text() == "Hoshi", timeout=5000)
    assert ws.inspector.shows_unedited(turn, editor.text())
    assert not any("unsaved" in m for m in messages)
