"""A cast name may be 100 characters long, a speaker's name at most 60: renaming a character
who speaks dialogue to a name of 61-100 characters wrote lines whose speaker broke the limit
that every other edit keeps. Such a rename is refused, naming the limit; a character who speaks
no line may still take the longer name."""

from __future__ import annotations

import pytest

from studio.core.commands import AddCastMember, AddTurn, CommandError, RenameCastMember, SetDialogue
from studio.core.model import CastMember
from studio.core.story import MAX_SPEAKER_CHARS, DialogueLine, check_dialogue_line
from studio.core.text import MAX_NAME_CHARS
from studio.storage import Project


def test_a_speaker_cannot_be_renamed_past_the_speaker_limit(project: Project) -> None:
    project.apply(AddCastMember(CastMember(id="m", name="Mei")))
    project.apply(AddTurn(project.tree.root_id, "Character: Mei; Motion: wave", node_id="a"))
    project.apply(SetDialogue("a", (DialogueLine("Mei", "Hello!"), DialogueLine("mei", "Again!"))))
    long_name = "M" * (MAX_SPEAKER_CHARS + 1)
    with pytest.raises(CommandError) as raised:
        project.apply(RenameCastMember("m", long_name))
    assert raised.value.message == (
        f"The name {'M' * 40!r}... is {MAX_SPEAKER_CHARS + 1} characters long, and Mei speaks 2 dialogue lines; "
        f"a speaker's name is at most {MAX_SPEAKER_CHARS} characters.")
    assert project.tree.cast["m"].name == "Mei"
    assert [line.speaker for line in project.tree.node("a").story.dialogue] == ["Mei", "mei"]
    fits = "M" * MAX_SPEAKER_CHARS
    project.apply(RenameCastMember("m", fits))
    for line in project.tree.node("a").story.dialogue:
        assert check_dialogue_line(line.speaker, line.text) == line


def test_a_character_who_speaks_no_line_may_take_a_long_name(project: Project) -> None:
    project.apply(AddCastMember(CastMember(id="m", name="Mei")))
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: wave", node_id="a"))
    project.apply(SetDialogue("a", (DialogueLine("Qiqi", "Hello!"),)))
    project.apply(RenameCastMember("m", "M" * MAX_NAME_CHARS))
    assert project.tree.cast["m"].name == "M" * MAX_NAME_CHARS
