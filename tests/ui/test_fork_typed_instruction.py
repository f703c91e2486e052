"""Fork with an instruction typed but not saved: the new alternative carries the typed line, and
the original turn, its takes and the undo history are left as they were."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import generate_first_branch


def test_fork_carries_the_typed_instruction_and_leaves_the_original(make_window, sample_project: Path,
                                                                    qtbot) -> None:
    window = make_window(sample_project)
    workspace, project = window.workspace, window.session.project
    generate_first_branch(window, qtbot)
    window.session.settle()
    first = project.tree.child_ids(project.tree.root_id)[0]
    workspace.select(first, center=False)
    qtbot.wait(100)
    original = project.tree.node(first).instruction.raw
    editor = workspace.inspector.editor
    editor.motion.setFocus()
    editor.motion.selectAll()
    qtbot.keyClicks(editor.motion, "wildly spin")
    typed = editor.text()
    window.actions_.fork.trigger()
    window.session.settle()
    qtbot.wait(300)
    window.session.settle()
    tree = project.tree
    fork = next(node_id for node_id in tree.child_ids(tree.root_id) if node_id != first)
    assert tree.node(first).instruction.raw == original
    assert tree.node(fork).instruction.raw == typed and "wildly spin" in typed
    assert not tree.selected_take(first).stale
    assert [entry.label for entry in project.document.history.done][-1] == "Fork turn"
    assert "Edit instruction" not in [entry.label for entry in project.document.history.done][-2:]
