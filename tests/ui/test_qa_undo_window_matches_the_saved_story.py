"""An author's session, undone and redone step by step, some steps while a generation runs
and lands in between: after every undo and redo, the story as saved (the project read again
from its database) is the story the window holds, and the tree, the inspector and the branch
player all show it, the selection on a turn of the shown branch."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from studio.core.commands import SetNarration
from studio.core.tree import StoryTree
from studio.storage.project import Project


def _settle(window, qtbot, ms: int = 150) -> None:  # type: ignore[no-untyped-def]
    window.session.settle()
    QApplication.processEvents()
    qtbot.wait(ms)
    window.session.settle()
    QApplication.processEvents()


def _saved(path: Path) -> StoryTree:
    project = Project.open(path, read_only=True)
    try:
        return project.tree
    finally:
        project.close()


def _differences(window) -> list[str]:  # type: ignore[no-untyped-def]
    """What the window shows that the saved story does not say (empty: they agree)."""
    ws = window.workspace
    tree = window.session.project.tree
    saved = _saved(window.session.project.path)
    found = [f"{kind} differ" for kind in ("nodes", "takes", "cast", "locations")
             if getattr(tree, kind) != getattr(saved, kind)]
    found += [f"order under {n}" for n in tree.nodes if tree.child_ids(n) != saved.child_ids(n)]
    node = tree.nodes.get(ws.current_id)
    if node is None:
        return [*found, "the selected turn is gone"]
    ins = ws.inspector
    if ins.node_id != node.id:
        found.append("the inspector shows another turn")
    if ins.notes.toPlainText() != node.notes:
        found.append("notes")
    if not node.is_root:
        if ins.story.narration.toPlainText().strip() != node.story.narration:
            found.append("narration")
        if ins.story.dialogue() != node.story.dialogue:
            found.append("dialogue")
        if [tile.take.id for tile in ins.takes.tiles] != [take.id for take in tree.takes_of(node.id)]:
            found.append("takes")
        if [tile.take.id for tile in ins.takes.tiles if tile.selected] != \
                ([node.selected_take_id] if node.selected_take_id else []):
            found.append("chosen take")
    if ws.episode.branch != ws.branch or node.id not in ws.branch:
        found.append("branch player")
    if set(ws.scene.cells) != set(tree.nodes) or ws.scene.current_id != node.id:
        found.append("tree")
    clips = [str(window.session.project.resolve(t.clip_path)) for n in ws.branch[1:]
             if (t := tree.selected_take(n)) is not None and t.clip_path]
    if clips and [p for p in ws.episode.player.paths if p] != clips:
        found.append("branch player clips")
    return found


def _step(window, qtbot, action, where: str) -> None:  # type: ignore[no-untyped-def]
    action.trigger()
    _settle(window, qtbot)
    assert _differences(window) == [], where


def _back_and_forth(window, qtbot, depth: int, where: str) -> None:  # type: ignore[no-untyped-def]
    """Undo ``depth`` steps, redo them, interleaved (undo, redo, undo...), checking each."""
    a = window.actions_
    for i in range(depth):
        _step(window, qtbot, a.undo, f"{where}: undo {i + 1}")
    _step(window, qtbot, a.redo, f"{where}: redo 1")
    _step(window, qtbot, a.undo, f"{where}: undo again")
    for i in range(depth):
        _step(window, qtbot, a.redo, f"{where}: redo {i + 1}")


def _wait_for_jobs(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=60_000)
    _settle(window, qtbot)


def test_every_undo_and_redo_leaves_the_window_and_the_saved_story_alike(make_window, sample_project: Path,
                                                                          qtbot) -> None:
    window = make_window(sample_project)
    ws, ins, a = window.workspace, window.workspace.inspector, window.actions_
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    _settle(window, qtbot)

    ws.start_new_turn()  # a new turn, written and saved
    ins.editor.motion.setText("waves at the sea")
    ws.save_text(ins.editor.text())
    _settle(window, qtbot)
    new = ws.current_id
    assert new != leaf
    ins.story.narration.setPlainText("The wind rises.")
    ins.notes.setPlainText("Check the sea colour")
    ins.commit_edits()
    _settle(window, qtbot)
    a.fork.trigger()  # an alternative, moved above the original
    _settle(window, qtbot)
    a.move_up.trigger()
    _settle(window, qtbot)
    assert _differences(window) == []
    _back_and_forth(window, qtbot, 5, "writing")

    ws.select(new, center=False)  # two takes, the first chosen again
    a.reroll.trigger()
    _wait_for_jobs(window, qtbot)
    a.reroll.trigger()
    _wait_for_jobs(window, qtbot)
    ws.choose_take(new, window.session.project.tree.takes_of(new)[0].id)
    _settle(window, qtbot)
    _back_and_forth(window, qtbot, 3, "takes")

    parent = window.session.project.tree.nodes[new].parent_id or ""
    ws.apply(SetNarration(parent, "Earlier that day."))  # an edit undone while a generation runs
    _settle(window, qtbot)
    a.reroll.trigger()
    a.undo.trigger()
    _wait_for_jobs(window, qtbot)  # the take lands after the undo
    assert _differences(window) == []
    _back_and_forth(window, qtbot, 2, "a take landed between")

    fork_point = next(n for n in window.session.project.tree.nodes
                      if len(window.session.project.tree.child_ids(n)) >= 2)
    ws.select(window.session.project.tree.child_ids(fork_point)[-1], center=False)
    a.delete.trigger()  # a whole branch
    _settle(window, qtbot)
    assert _differences(window) == []
    _back_and_forth(window, qtbot, 2, "deleted a branch")
