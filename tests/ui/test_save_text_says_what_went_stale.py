"""Save text on a turn above others says what it did (its take no longer matches, the turns
after it are stale), each stale card gives its own reason, and the line is kept as written."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import EditInstruction

from .conftest import generate_first_branch

WRITTEN = "Character: Yuzu; Motion: jump; Background: park; Time: day."


def test_save_text_above_other_turns(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    leaf = generate_first_branch(window, qtbot)
    tree = session.project.tree
    branch = [n.id for n in tree.path_to(leaf) if not n.is_root]
    edited = branch[1]  # turn 2 of the branch; the turns after it have takes
    below = branch[2:]
    assert below and all(not session.project.tree.selected_take(n).stale for n in below)

    ws.select(edited, center=False)
    editor = ws.inspector.editor
    editor.motion.setText("dance")
    editor.save_button.click()
    session.settle()
    qtbot.waitUntil(lambda: "Instruction saved" in window.status_text(), timeout=5000)
    assert (f"Instruction saved; its take no longer matches it, and {len(below)} turns after it are stale"
            in window.status_text())
    own_tip = ws.scene.cards[edited].toolTip()
    assert "instruction was edited" in own_tip and "a turn above it changed" not in own_tip
    for node_id in below:
        assert "a turn above it changed" in ws.scene.cards[node_id].toolTip()


def test_save_text_keeps_a_time_field_as_written(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    turn = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    ws.apply(EditInstruction(turn, WRITTEN))
    session.settle()
    ws.select(turn, center=False)
    editor = ws.inspector.editor
    editor.motion.setText("dance")
    editor.save_button.click()
    session.settle()
    # only the motion the author changed: "Background: day park." was never typed
    assert session.project.tree.node(turn).instruction.raw == WRITTEN.replace("jump", "dance")
