"""A fork is another way to tell the same moment: it copies what was written for the turn
(instruction, story fields, notes) and nothing made or marked on it (takes, bookmark), in one
undo step. The notes were left behind: an author's "make this one sadder" stayed on the
original while the story fields came along."""

from __future__ import annotations

from studio.core import AddTake, AddTurn, DialogueLine, Document, Fork, SetStory, StoryFields, StoryTree, Take
from studio.core.commands import SetBookmark, SetNotes
from studio.core.instruction import Instruction
from studio.core.model import Node


def _document() -> Document:
    tree = StoryTree.from_entities([Node(id="root", parent_id=None, instruction=Instruction(raw=""))])
    document = Document(tree)
    document.apply(AddTurn("root", "Character: Qiqi; Motion: run; Background: day town", node_id="a"))
    return document


def test_a_fork_copies_the_notes_with_the_story_but_no_take_or_bookmark() -> None:
    document = _document()
    document.apply(AddTake(Take(id="t1", node_id="a", engine="fake", instruction_raw="Character: Qiqi; Motion: run")))
    document.apply(SetStory("a", StoryFields((DialogueLine("Qiqi", "Hi"),), "Morning.", 2.0, "close-up")))
    document.apply(SetNotes("a", "make this one sadder"))
    document.apply(SetBookmark("a", True))

    document.apply(Fork("a", new_node_id="b"))

    fork, original = document.tree.node("b"), document.tree.node("a")
    assert (fork.instruction.raw, fork.story, fork.notes) == (original.instruction.raw, original.story, original.notes)
    assert document.tree.takes_of("b") == [] and not fork.bookmarked
    document.undo()
    assert "b" not in document.tree.nodes


def test_a_fork_of_a_turn_with_notes_only_copies_them() -> None:
    document = _document()
    document.apply(SetNotes("a", "try it at night"))
    document.apply(Fork("a", new_node_id="b", text="Character: Qiqi; Motion: walk; Background: night town"))
    assert document.tree.node("b").notes == "try it at night"
    assert document.tree.node("b").instruction.raw.endswith("night town")
