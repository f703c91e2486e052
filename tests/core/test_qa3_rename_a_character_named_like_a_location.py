"""A project made before the cast panel refused a character named like a location (or made by
another program) may hold both, "River" the character and "river" the place. Renaming the
character rewrote every whole-word "river" outside the place fields, so "swims in the river"
became "swims in the Kawa": the place's uses were silently renamed. Where a location has the
name too, a rename changes the Character fields only."""

from __future__ import annotations

from studio.core.commands import (
    AddCastMember,
    AddLocation,
    AddTurn,
    RenameCastMember,
    place_named,
    renamed_text,
    turns_naming,
)
from studio.core.model import CastMember, Location
from studio.storage import Project


def _river_project(project: Project) -> None:
    project.apply(AddCastMember(CastMember(id="r", name="River")))
    project.apply(AddLocation(Location(id="l", name="river")))
    project.apply(AddTurn(project.tree.root_id, "Character: River; Motion: wave; Background: day river.", node_id="a"))
    project.apply(AddTurn("a", "Character: Qiqi; Motion: swim in the river; Background: day river.", node_id="b"))
    project.apply(AddTurn("b", "Qiqi jumps into the river", node_id="c"))


def test_a_rename_changes_only_the_character_fields_of_a_name_a_place_has_too(project: Project) -> None:
    _river_project(project)
    before = {n: project.tree.node(n).instruction.raw for n in ("b", "c")}

    project.apply(RenameCastMember("r", "Kawa"))

    tree = project.tree
    assert tree.node("a").instruction.raw == "Character: Kawa; Motion: wave; Background: day river."
    assert {n: tree.node(n).instruction.raw for n in ("b", "c")} == before, "the place's uses were renamed"
    assert [loc.name for loc in tree.locations.values()] == ["river"]


def test_turns_naming_the_character_field_only(project: Project) -> None:
    _river_project(project)
    tree = project.tree
    assert place_named(tree, " RIVER ") == "river"
    assert place_named(tree, "Qiqi") == ""
    assert {n.id for n in turns_naming(tree, "River", character_field_only=True)} == {"a"}
    assert {n.id for n in turns_naming(tree, "River")} == {"a", "b", "c"}


def test_renamed_text_without_a_shared_name_renames_the_text_too(project: Project) -> None:
    _river_project(project)
    tree = project.tree
    assert renamed_text(tree, "Character: Qiqi; Qiqi laughs", "Qiqi", "Kiki") == "Character: Kiki; Kiki laughs"
    assert renamed_text(tree, "Character: River; River laughs", "River", "Kawa") == "Character: Kawa; River laughs"


def test_a_free_text_turn_is_played_by_the_character_that_is_no_place(project: Project) -> None:
    """"Into the river jumps Qiqi": the river named first was read as the character River, so
    the turn (its state, its storyboard heading and state line in exports) went to River."""
    _river_project(project)
    project.apply(AddCastMember(CastMember(id="q", name="Qiqi")))
    project.apply(AddTurn("c", "Into the river jumps Qiqi", node_id="d"))
    project.apply(AddTurn("d", "River laughs", node_id="e"))  # the only name: the character it is
    tree = project.tree
    assert tree.acting_character("d") == "Qiqi"
    assert tree.acting_character("e") == "River"
