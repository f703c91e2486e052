"""A tab (or any other control character) is refused in instructions and story fields, as the
README promises, with a message naming the character by its code point and its position; only
narration and shot notes may hold line breaks. Text stored before (by an older version or
another program) does not stop an edit of the turn's other fields."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.commands import (
    AddDialogueLine,
    AddTurn,
    Command,
    EditInstruction,
    SetDuration,
    SetNarration,
    SetShotNotes,
)
from studio.core.instruction import InstructionError, validate_instruction_text
from studio.core.story import StoryFieldError, StoryFields
from studio.storage import Project

LINE = "Character: Qiqi; Motion: run; Background: day town."
TABBED = "Character: Qiqi;\tMotion: run; Background: day town."


@pytest.mark.parametrize("text,shown,position", [
    (TABBED, "U+0009, a tab", 17), ("Qiqi\x0bruns", "U+000B, a vertical tab", 5), ("Qiqi runs\x1b", "U+001B, ESC", 10),
    ("Qiqi\nruns", "U+000A, a line break", 5), ("Qiqi\x85runs", "U+0085, a next-line control", 5),
])
def test_an_instruction_names_the_control_character_and_where_it_is(text: str, shown: str, position: int) -> None:
    with pytest.raises(InstructionError) as raised:
        validate_instruction_text(text)
    assert raised.value.message == f"The instruction holds a control character ({shown}) at character {position}."


def test_the_document_commands_refuse_a_tab_in_an_instruction(project: Project) -> None:
    with pytest.raises(InstructionError, match=r"\(U\+0009, a tab\) at character 17"):
        project.apply(AddTurn(project.tree.root_id, TABBED))
    project.apply(AddTurn(project.tree.root_id, LINE, node_id="turn1"))
    with pytest.raises(InstructionError, match=r"U\+0009"):
        project.apply(EditInstruction("turn1", TABBED))
    assert project.tree.nodes["turn1"].instruction.raw == LINE


STORY_EDITS: list[tuple[Callable[[str], Command], str, int]] = [
    (lambda node: SetNarration(node, "The town\twakes up."), "narration", 9),
    (lambda node: SetShotNotes(node, "wide\tshot"), "shot notes", 5),
    (lambda node: AddDialogueLine(node, "Qiqi", "I'm\tlate!"), "dialogue line", 4),
    (lambda node: AddDialogueLine(node, "Qi\tqi", "I'm late!"), "speaker's name", 3),
]


@pytest.mark.parametrize("command,what,position", STORY_EDITS)
def test_the_story_fields_refuse_a_tab(project: Project, command: Callable[[str], Command], what: str,
                                       position: int) -> None:
    project.apply(AddTurn(project.tree.root_id, LINE, node_id="turn1"))
    with pytest.raises(StoryFieldError) as raised:
        project.apply(command("turn1"))
    verb = "hold" if what == "shot notes" else "holds"
    assert raised.value.message == f"The {what} {verb} a control character (U+0009, a tab) at character {position}."
    assert project.tree.nodes["turn1"].story == StoryFields()


def test_narration_and_notes_keep_their_line_breaks(project: Project) -> None:
    project.apply(AddTurn(project.tree.root_id, LINE, node_id="turn1"))
    project.apply(SetNarration("turn1", "The town wakes up.\nQiqi does not."))
    project.apply(SetShotNotes("turn1", "wide\nthen close"))
    story = project.tree.nodes["turn1"].story
    assert story.narration == "The town wakes up.\nQiqi does not." and story.shot_notes == "wide\nthen close"
    with pytest.raises(StoryFieldError, match=r"U\+000A, a line break"):
        project.apply(AddDialogueLine("turn1", "Qiqi", "I'm\nlate!"))


def test_a_tab_stored_before_does_not_stop_editing_the_other_fields(tmp_path: Path) -> None:
    with Project.create(tmp_path / "story") as project:
        project.apply(AddTurn(project.tree.root_id, LINE, node_id="turn1"))
        folder = project.path
    with sqlite3.connect(folder / "project.db") as db:  # as an older version stored it
        db.execute("UPDATE nodes SET narration = ? WHERE id = 'turn1'", ("stored\tbefore",))
    db.close()
    with Project.open(folder) as project:
        project.apply(SetDuration("turn1", 3.0))
        project.apply(AddDialogueLine("turn1", "Qiqi", "I'm late!"))
        story = project.tree.nodes["turn1"].story
        assert (story.narration, story.duration, len(story.dialogue)) == ("stored\tbefore", 3.0, 1)
        with pytest.raises(StoryFieldError, match=r"U\+0009"):  # a narration the edit changes is checked
            project.apply(SetNarration("turn1", "still\ttabbed"))


def test_play_narrate_and_say_refuse_a_tab_on_the_command_line(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "story.kamishibai"
    assert main(["new", str(folder)]) == 0
    assert main(["play", str(folder), "-i", TABBED]) == 2
    assert "The instruction holds a control character (U+0009, a tab) at character 17." in capsys.readouterr().err
    with Project.open(folder) as project:
        assert len(project.tree.nodes) == 1, "no turn was added"
        project.apply(AddTurn(project.tree.root_id, LINE, node_id="turn1"))
    assert main(["narrate", str(folder), "turn1", "The town\twakes up."]) == 2
    assert "The narration holds a control character (U+0009, a tab) at character 9." in capsys.readouterr().err
    assert main(["say", str(folder), "turn1", "I'm\tlate!"]) == 2
    assert "The dialogue line holds a control character (U+0009, a tab) at character 4." in capsys.readouterr().err
    assert main(["story", str(folder), "turn1", "--notes", "wide\tshot"]) == 2
    assert "The shot notes hold a control character (U+0009, a tab) at character 5." in capsys.readouterr().err
    with Project.open(folder, read_only=True) as project:
        assert project.tree.nodes["turn1"].story == StoryFields()
