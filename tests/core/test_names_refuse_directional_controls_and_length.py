"""A character's or a location's name can't hold a directional embedding, override or isolate
(U+202A..U+202E, U+2066..U+2069): the cast list showed "Mei\u202eabc" as "Meicba", and every
card, sheet and terminal line after the name was reordered too. Nor can it run past 100
characters: a 5,000-character name was accepted and filled the cast panel. Right-to-left names
and their plain marks (U+200E, U+200F) stay allowed."""

from __future__ import annotations

import pytest

from studio.core.commands import AddCastMember, AddLocation, CommandError, RenameCastMember
from studio.core.model import CastMember, Location
from studio.core.text import MAX_NAME_CHARS
from studio.storage import Project


@pytest.mark.parametrize("char,shown", [("\u202e", "U+202E, a right-to-left override"),
                                        ("\u202a", "U+202A, a left-to-right embedding"),
                                        ("\u2067", "U+2067, a right-to-left isolate")])
def test_a_character_named_with_a_directional_control_is_refused(project: Project, char: str, shown: str) -> None:
    with pytest.raises(CommandError) as raised:
        project.apply(AddCastMember(CastMember(id="m1", name=f"Mei{char}abc")))
    assert f"holds {shown} at character 4" in raised.value.message
    assert "m1" not in project.tree.cast


def test_renaming_to_a_directional_control_keeps_the_old_name(project: Project) -> None:
    project.apply(AddCastMember(CastMember(id="m1", name="Mei")))
    with pytest.raises(CommandError, match="right-to-left override"):
        project.apply(RenameCastMember("m1", "\u202eMei"))
    assert project.tree.cast["m1"].name == "Mei"


def test_a_name_past_the_limit_is_refused_and_one_at_it_is_kept(project: Project) -> None:
    with pytest.raises(CommandError) as raised:
        project.apply(AddCastMember(CastMember(id="m1", name="A" * 5000)))
    assert raised.value.message == f"The name is 5,000 characters long; the limit is {MAX_NAME_CHARS}."
    project.apply(AddCastMember(CastMember(id="m2", name="B" * MAX_NAME_CHARS)))
    assert project.tree.cast["m2"].name == "B" * MAX_NAME_CHARS


def test_right_to_left_names_and_their_marks_are_kept(project: Project) -> None:
    project.apply(AddCastMember(CastMember(id="m1", name="\u0645\u064a \u200fرين")))
    project.apply(AddCastMember(CastMember(id="m2", name="\u05de\u05d9\u200e 2")))
    assert set(project.tree.cast) == {"m1", "m2"}


def test_a_location_name_is_held_to_the_same_rules(project: Project) -> None:
    with pytest.raises(CommandError, match="U\\+202E, a right-to-left override"):
        project.apply(AddLocation(Location(id="l1", name="park\u202e")))
    with pytest.raises(CommandError, match="The location name is 101 characters long"):
        project.apply(AddLocation(Location(id="l2", name="p" * 101)))
    assert not project.tree.locations
