"""A take finished in the background while an edit of its own turn's line is undone. Redo
was kept when the two patches shared no entity, but the take depends on more than the
entities it writes: redoing the deletion of its turn (a re-roll adds its take beside the
chosen one, writing no turn) failed with "IntegrityError: FOREIGN KEY constraint failed"
every time, and redoing an edit of the turn above it left the take fresh, though it was
made from the text the edit replaced. Such a take now ends the redo history; a take on an
unrelated turn still keeps it (tests/core/test_background_takes.py)."""

from __future__ import annotations

from pathlib import Path

from studio.core import AddTake, AddTurn, DeleteSubtree, EditInstruction, SetNotes, Take
from studio.storage import Project

RUN = "Character: Qiqi; Motion: run; Background: day town."
SIT = "Character: Qiqi; Motion: sit; Background: day town."


def _take(project: Project, take_id: str, node_id: str) -> Take:
    tree = project.tree
    node = tree.node(node_id)
    return Take(id=take_id, node_id=node_id, engine="fake", instruction_raw=node.instruction.raw,
                parent_take_id=tree.node(node.parent_id or "").selected_take_id or "")


def _story(project: Project) -> None:
    project.apply(AddTurn(project.tree.root_id, RUN, node_id="a"))
    project.apply(AddTake(_take(project, "ta", "a")))
    project.apply(AddTurn("a", SIT, node_id="b"))


def test_a_take_on_a_turn_whose_deletion_is_undone_ends_redo(tmp_path: Path) -> None:
    with Project.create(tmp_path / "p") as project:
        _story(project)
        project.apply(DeleteSubtree("a"))
        project.undo()
        project.document.apply(AddTake(_take(project, "tb", "b"), select=False), background=True)
        assert project.document.history.redo_label is None
        assert project.redo() is None
        assert {"a", "b"} <= project.tree.nodes.keys() and "tb" in project.tree.takes
        project.apply(DeleteSubtree("a"))  # deleting again, by hand, takes the new take along
        assert "tb" not in project.tree.takes
    with Project.open(tmp_path / "p.kamishibai", read_only=True) as again:
        assert "b" not in again.tree.nodes and "tb" not in again.tree.takes


def test_a_take_below_a_turn_whose_edit_is_undone_ends_redo(tmp_path: Path) -> None:
    with Project.create(tmp_path / "p") as project:
        _story(project)
        project.apply(EditInstruction("a", "Character: Qiqi; Motion: jump; Background: day town."))
        project.undo()
        project.document.apply(AddTake(_take(project, "tb", "b")), background=True)
        assert project.document.history.redo_label is None
        project.redo()
        assert project.tree.node("a").instruction.motion == "run"
        assert not project.tree.takes["tb"].stale
        # the edit made again by hand marks the take made from the old text stale
        project.apply(EditInstruction("a", "Character: Qiqi; Motion: jump; Background: day town."))
        assert project.tree.takes["tb"].stale


def test_an_undone_edit_of_a_turn_on_another_branch_is_still_redone(tmp_path: Path) -> None:
    with Project.create(tmp_path / "p") as project:
        _story(project)
        project.apply(AddTurn(project.tree.root_id, SIT, node_id="c"))
        project.apply(SetNotes("c", "rain later"))
        project.undo()
        project.document.apply(AddTake(_take(project, "tb", "b")), background=True)
        assert project.document.history.redo_label == "Edit notes"
        project.redo()
        assert project.tree.node("c").notes == "rain later" and "tb" in project.tree.takes
