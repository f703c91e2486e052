"""Story fields: dialogue, narration, duration and shot notes, edited by undoable commands."""

from __future__ import annotations

import pytest

from studio.core import (
    AddDialogueLine,
    AddTake,
    AddTurn,
    DialogueLine,
    Document,
    Fork,
    SetDialogue,
    SetDuration,
    SetNarration,
    SetShotNotes,
    SetStory,
    StoryFieldError,
    StoryFields,
    StoryTree,
    Take,
)
from studio.core.commands import CommandError
from studio.core.instruction import Instruction
from studio.core.model import Node


def _document() -> tuple[Document, str]:
    tree = StoryTree.from_entities([Node(id="root", parent_id=None, instruction=Instruction(raw=""))])
    document = Document(tree)
    document.apply(AddTurn("root", "Character: Qiqi; Motion: run; Background: day town", node_id="a"))
    return document, "a"


def test_each_field_is_set_and_undone_one_step_at_a_time() -> None:
    document, node = _document()
    document.apply(AddDialogueLine(node, "Qiqi", "  I'm late!  "))
    document.apply(AddDialogueLine(node, "Mei", "Wait for me!"))
    document.apply(SetNarration(node, "The town wakes up."))
    document.apply(SetDuration(node, 3.25))
    document.apply(SetShotNotes(node, "wide shot,\nlow angle"))
    story = document.tree.node(node).story
    assert story.dialogue == (DialogueLine("Qiqi", "I'm late!"), DialogueLine("Mei", "Wait for me!"))
    assert (story.narration, story.duration, story.shot_notes) == ("The town wakes up.", 3.25, "wide shot,\nlow angle")
    assert document.history.undo_label == "Edit shot notes"
    for expected in ("wide shot,\nlow angle", ""):
        assert document.tree.node(node).story.shot_notes == expected
        document.undo()
    assert document.tree.node(node).story.duration is None
    document.undo()
    document.undo()
    assert document.tree.node(node).story.dialogue == (DialogueLine("Qiqi", "I'm late!"),)
    document.redo()
    document.apply(SetDialogue(node, ()))
    assert document.tree.node(node).story.dialogue == ()


def test_story_edits_leave_takes_fresh_and_forks_copy_them() -> None:
    document, node = _document()
    document.apply(AddTake(Take(id="t1", node_id=node, engine="fake", instruction_raw=document.tree.node(node)
                                .instruction.raw)))
    document.apply(SetStory(node, StoryFields((DialogueLine("Qiqi", "Hi"),), "Morning.", 2.0, "close-up")))
    assert not document.tree.takes["t1"].stale
    document.apply(Fork(node, new_node_id="b"))
    assert document.tree.node("b").story == document.tree.node(node).story


@pytest.mark.parametrize("command", [
    AddDialogueLine("a", "Qiqi", "   "),
    AddDialogueLine("a", "Qiqi", "line\nbreak"),
    AddDialogueLine("a", "Q" * 61, "Hello"),
    SetNarration("a", "bell \x07"),
    SetDuration("a", 0.0),
    SetDuration("a", float("nan")),
    SetDuration("a", 601),
])
def test_bad_story_fields_are_refused_and_change_nothing(command: object) -> None:
    document, _node = _document()
    before = document.tree.node("a")
    with pytest.raises(StoryFieldError):
        document.apply(command)  # type: ignore[arg-type]
    assert document.tree.node("a") is before
    assert document.history.undo_label == "New turn"


def test_the_story_start_has_no_story_fields() -> None:
    document, _node = _document()
    with pytest.raises(CommandError):
        document.apply(SetNarration("root", "Once upon a time"))
