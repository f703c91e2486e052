"""Generate on a turn whose fields were not touched is a re-roll: the editor shows a free-text
instruction in its own form, and that form must not be saved over the turn (which would mark its
takes and every take below stale)."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import AddTurn


def test_generate_on_an_unedited_free_text_turn_keeps_its_instruction(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "free.kamishibai", "Free"), window.last_error
    workspace, project = window.workspace, window.session.project
    root = project.tree.root_id
    free = "Qiqi eats bread slowly in the bakery at night"  # as import-demo or play -i store it
    project.apply(AddTurn(root, free, node_id="aaaaaaaaaa"))
    project.apply(AddTurn("aaaaaaaaaa", "Character: Qiqi; Motion: run; Background: day town", node_id="bbbbbbbbbb"))
    window.session.settle()
    workspace.select("bbbbbbbbbb", center=False)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs() and len(project.tree.takes) == 2, timeout=60000)
    window.session.settle()
    workspace.select("aaaaaaaaaa", center=False)
    qtbot.wait(50)
    assert workspace.inspector.editor.text() != free, "the editor shows the line in its own form"
    workspace.inspector.editor.generate_button.click()
    qtbot.waitUntil(lambda: len(project.tree.takes) == 3 and not window.session.active_jobs(), timeout=60000)
    window.session.settle()
    tree = project.tree
    assert tree.node("aaaaaaaaaa").instruction.raw == free
    assert not any(take.stale for take in tree.takes.values())
    assert "instruction" not in (project.document.history.undo_label or "").lower()

