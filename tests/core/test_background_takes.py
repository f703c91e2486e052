"""A take that a generation finishes in the background keeps the user's redo history where
the two touch different things (QA: any finished take wiped Redo, so with a queue running the
user could never redo an undone edit)."""

from __future__ import annotations

import pytest

from studio.core import AddTake, AddTurn, Document, StoryTree, Take
from studio.core.commands import SetNotes
from studio.core.instruction import parse_instruction
from studio.core.model import Node


@pytest.fixture
def doc() -> Document:
    root = Node(id="root", parent_id=None, instruction=parse_instruction(""))
    document = Document(StoryTree.from_entities([root]))
    document.apply(AddTurn("root", "Character: Qiqi; Motion: run.", node_id="a"))
    document.apply(AddTurn("root", "Character: Qiqi; Motion: wave.", node_id="b"))
    return document


def test_a_background_take_on_another_turn_keeps_redo_and_redo_still_applies(doc: Document) -> None:
    doc.apply(SetNotes("a", "rain later"))
    doc.undo()
    assert doc.history.redo_label == "Edit notes"
    doc.apply(AddTake(Take(id="t1", node_id="b", engine="fake")), background=True)
    assert doc.history.redo_label == "Edit notes"  # the take is on turn b, the notes on turn a
    doc.redo()
    assert doc.tree.nodes["a"].notes == "rain later" and "t1" in doc.tree.takes
    doc.undo()  # the notes again, then the take: each undoes exactly its own change
    assert doc.tree.nodes["a"].notes == "" and "t1" in doc.tree.takes
    doc.undo()
    assert "t1" not in doc.tree.takes


def test_a_background_take_on_the_same_turn_ends_the_redo_history(doc: Document) -> None:
    doc.apply(SetNotes("b", "rain later"))
    doc.undo()
    doc.apply(AddTake(Take(id="t1", node_id="b", engine="fake")), background=True)
    assert doc.history.redo_label is None  # both write turn b: no order-free redo


def test_the_users_own_edit_still_ends_the_redo_history(doc: Document) -> None:
    doc.apply(SetNotes("a", "rain later"))
    doc.undo()
    doc.apply(AddTake(Take(id="t1", node_id="b", engine="fake")))
    assert doc.history.redo_label is None
