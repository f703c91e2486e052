"""The takes of one action (a branch re-roll) that land one after another are one undo step:
the merged step undoes to what was there before the first and redoes to after the last, even
where two takes wrote the same turn; anything in between keeps the steps apart."""

from __future__ import annotations

import pytest

from studio.core import AddTake, AddTurn, Document, StoryTree, Take
from studio.core.commands import AddBranchRerollTake, SetNotes
from studio.core.document import UndoGroup
from studio.core.instruction import parse_instruction
from studio.core.model import Node

BRANCH = UndoGroup("branch-1", total=3, unit="turn")


@pytest.fixture
def doc() -> Document:
    """a -> b under the start, and c beside a; a and b have a chosen take."""
    root = Node(id="root", parent_id=None, instruction=parse_instruction(""))
    document = Document(StoryTree.from_entities([root]))
    document.apply(AddTurn("root", "Character: Qiqi; Motion: run.", node_id="a"))
    document.apply(AddTurn("a", "Character: Qiqi; Motion: wave.", node_id="b"))
    document.apply(AddTurn("root", "Character: Qiqi; Motion: sit.", node_id="c"))
    document.apply(AddTake(Take(id="a0", node_id="a", engine="fake")))
    document.apply(AddTake(Take(id="b0", node_id="b", engine="fake", parent_take_id="a0")))
    return document


def _land(doc: Document, take_id: str, node_id: str, parent_take: str = "", group: UndoGroup = BRANCH) -> None:
    take = Take(id=take_id, node_id=node_id, engine="fake", parent_take_id=parent_take)
    doc.apply(AddBranchRerollTake(take), background=True, group=group)


def _state(doc: Document) -> tuple[object, ...]:
    tree = doc.tree
    return (tuple((n, tree.nodes[n].selected_take_id) for n in "abc"),
            tuple(sorted((t.id, t.stale) for t in tree.takes.values())))


def test_one_undo_takes_back_every_take_of_the_group_and_one_redo_brings_them_back(doc: Document) -> None:
    before = _state(doc)
    _land(doc, "a1", "a", "")
    assert doc.history.undo_label == "Re-roll branch (1 of 3 turns)"
    _land(doc, "b1", "b", "a1")
    after = _state(doc)
    assert doc.history.undo_label == "Re-roll branch (2 of 3 turns)"
    assert len(doc.history.done) == 6
    doc.undo()
    assert _state(doc) == before
    assert doc.history.redo_label == "Re-roll branch (2 of 3 turns)"
    doc.redo()
    assert _state(doc) == after


def test_two_takes_of_one_turn_undo_to_the_take_chosen_before_the_first(doc: Document) -> None:
    """Both takes write turn a (its chosen take) and b's take (stale or not): the step's
    reverse keeps what was there before the first, its forward what the second wrote."""
    before = _state(doc)
    group = UndoGroup("many-1", total=2, unit="take")
    _land(doc, "a1", "a", group=group)
    _land(doc, "a2", "a", group=group)
    after = _state(doc)
    assert doc.tree.nodes["a"].selected_take_id == "a2" and doc.tree.takes["b0"].stale
    assert doc.history.undo_label == "Re-roll branch (2 takes)"
    doc.undo()
    assert _state(doc) == before and not doc.tree.takes["b0"].stale
    doc.redo()
    assert _state(doc) == after


def test_an_edit_in_between_starts_a_new_step(doc: Document) -> None:
    _land(doc, "a1", "a")
    doc.apply(SetNotes("c", "rain"))
    _land(doc, "b1", "b", "a1")
    assert doc.history.undo_label == "Re-roll branch (1 of 3 turns)"
    doc.undo()
    assert "b1" not in doc.tree.takes and "a1" in doc.tree.takes and doc.tree.nodes["c"].notes == "rain"
    assert doc.history.undo_label == "Edit notes"


def test_another_groups_take_in_between_starts_a_new_step(doc: Document) -> None:
    _land(doc, "a1", "a")
    _land(doc, "c1", "c", group=UndoGroup("other", total=1))
    _land(doc, "b1", "b", "a1")
    assert [entry.label for entry in doc.history.done[-3:]] == [
        "Re-roll branch (1 of 3 turns)", "Re-roll branch", "Re-roll branch (1 of 3 turns)"]


def test_a_take_landing_after_its_step_was_undone_is_a_step_of_its_own(doc: Document) -> None:
    """Undo while the branch is still being made: the rest of its takes land on the story as it
    is now, as a new step; the undone one is not touched by them."""
    before = _state(doc)
    _land(doc, "a1", "a")
    doc.undo()
    _land(doc, "b1", "b", "a0")
    assert doc.history.undo_label == "Re-roll branch (1 of 3 turns)"
    doc.undo()
    assert _state(doc) == before
    assert doc.history.undo_label == "Generate take"


def test_a_merged_step_keeps_a_redo_it_is_independent_of(doc: Document) -> None:
    doc.apply(SetNotes("c", "rain"))
    doc.undo()
    _land(doc, "a1", "a")
    _land(doc, "b1", "b", "a1")
    assert doc.history.redo_label == "Edit notes"  # the branch a -> b never touches c
    doc.redo()
    assert doc.tree.nodes["c"].notes == "rain"
    doc.undo()
    doc.undo()
    assert "a1" not in doc.tree.takes and "b1" not in doc.tree.takes and doc.tree.nodes["c"].notes == ""


def test_a_merged_take_that_depends_on_an_undone_edit_ends_the_redo(doc: Document) -> None:
    doc.apply(SetNotes("b", "rain"))
    doc.undo()
    _land(doc, "c1", "c", group=UndoGroup("branch-2", total=2, unit="turn"))
    assert doc.history.redo_label == "Edit notes"  # c is beside b
    _land(doc, "b1", "b", group=UndoGroup("branch-2", total=2, unit="turn"))
    assert doc.history.redo_label is None  # b's take and b's notes: no order-free redo
    assert doc.history.undo_label == "Re-roll branch (2 turns)"


def test_takes_without_a_group_are_a_step_each(doc: Document) -> None:
    doc.apply(AddBranchRerollTake(Take(id="a1", node_id="a", engine="fake")), background=True)
    doc.apply(AddBranchRerollTake(Take(id="b1", node_id="b", engine="fake")), background=True)
    assert doc.history.undo_label == "Re-roll branch"
    doc.undo()
    assert "a1" in doc.tree.takes and "b1" not in doc.tree.takes
