"""A cast member's name can't hold a control character: an instruction can't (a tab, ESC...),
so no turn could ever name the character. Adding one was accepted, and renaming a character
that turns name to one failed with a message about an instruction the user never typed."""

from __future__ import annotations

import pytest

from studio.core.commands import AddCastMember, AddTurn, CommandError, RenameCastMember, cast_name_problem
from studio.core.model import CastMember
from studio.storage import Project


@pytest.mark.parametrize("name,shown,position", [("Yu\tzu", "U+0009, a tab", 3), ("Mei\x1bX", "U+001B, ESC", 4),
                                                 ("Qiqi\x85", "U+0085, a next-line control", 5)])
def test_adding_a_character_named_with_a_control_character_is_refused(project: Project, name: str, shown: str,
                                                                       position: int) -> None:
    with pytest.raises(CommandError) as raised:
        project.apply(AddCastMember(CastMember(id="m1", name=name)))
    assert f"holds a control character ({shown}) at character {position}" in raised.value.message
    assert "a turn could never name it" in raised.value.message
    assert "m1" not in project.tree.cast


def test_renaming_to_a_control_character_names_the_name_not_an_instruction(project: Project) -> None:
    project.apply(AddTurn(project.tree.root_id, "Character: Mei; Motion: run; Background: day town", node_id="t1"))
    project.apply(AddCastMember(CastMember(id="m1", name="Mei")))
    with pytest.raises(CommandError) as raised:
        project.apply(RenameCastMember("m1", "Mei\x1bX"))
    assert raised.value.message.startswith("The name 'Mei\\x1bX' holds a control character (U+001B, ESC)")
    assert project.tree.cast["m1"].name == "Mei"
    project.apply(RenameCastMember("m1", "Mei\tRin"))  # spacing is normalised in a rename, as before
    assert project.tree.cast["m1"].name == "Mei Rin"
    assert project.tree.nodes["t1"].instruction.character == "Mei Rin"


def test_a_line_break_is_still_named_with_the_field_syntax() -> None:
    assert "holds ';' or a line break" in cast_name_problem("Mei;\nRin")
