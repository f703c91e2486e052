"""A location added by mistake, or named wrong, could be neither removed nor renamed: the cast
panel offered both for characters only. A location is now renamed everywhere the story names
it (the Background fields, and whole words outside the Character field; the Background field
only where a character has the name too), and removed leaving the turns' text; both undo."""

from __future__ import annotations

import pytest

from studio.core.commands import (
    AddCastMember,
    AddLocation,
    AddTake,
    AddTurn,
    CommandError,
    RemoveLocation,
    RenameLocation,
    renamed_place_text,
)
from studio.core.model import CastMember, Location, Take, TakeStatus
from studio.storage import Project


def _harbour_project(project: Project) -> None:
    project.apply(AddLocation(Location(id="h", name="harbour", image_path="media/locations/h.png")))
    project.apply(AddLocation(Location(id="m", name="market")))
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day harbour.", node_id="a"))
    project.apply(AddTurn("a", "Qiqi waves at the Harbour crowd", node_id="b"))
    project.apply(AddTurn("b", "Character: Qiqi; Motion: sit; Background: market.", node_id="c"))


def test_a_rename_reaches_every_turn_that_names_the_place(project: Project) -> None:
    _harbour_project(project)
    project.apply(RenameLocation("h", "  old   port "))
    tree = project.tree
    assert tree.locations["h"].name == "old port" and tree.locations["h"].image_path == "media/locations/h.png"
    assert tree.node("a").instruction.raw == "Character: Qiqi; Motion: run; Background: day old port."
    assert tree.node("a").instruction.background == "old port"
    assert tree.node("b").instruction.raw == "Qiqi waves at the old port crowd"
    assert tree.node("c").instruction.raw == "Character: Qiqi; Motion: sit; Background: market."
    project.undo()
    assert project.tree.locations["h"].name == "harbour"
    assert project.tree.node("a").instruction.raw == "Character: Qiqi; Motion: run; Background: day harbour."


def test_a_rename_marks_the_takes_of_the_rewritten_turns_out_of_date(project: Project) -> None:
    _harbour_project(project)
    made_from = project.tree.node("a").instruction.raw  # what the take was generated from
    project.apply(AddTake(Take(id="ta", node_id="a", engine="sketch", status=TakeStatus.DONE,
                               instruction_raw=made_from)))
    assert not project.tree.takes["ta"].stale
    project.apply(RenameLocation("m", "bazaar"))  # turn a does not name the market
    assert not project.tree.takes["ta"].stale
    project.apply(RenameLocation("h", "port"))
    assert project.tree.takes["ta"].stale


def test_a_place_named_like_a_character_is_renamed_in_background_fields_only(project: Project) -> None:
    project.apply(AddCastMember(CastMember(id="r", name="River")))
    project.apply(AddLocation(Location(id="l", name="river")))
    project.apply(AddTurn(project.tree.root_id, "Character: River; Motion: swim; Background: day river.", node_id="a"))
    project.apply(AddTurn("a", "River laughs by the river", node_id="b"))
    project.apply(RenameLocation("l", "stream"))
    assert project.tree.node("a").instruction.raw == "Character: River; Motion: swim; Background: day stream."
    assert project.tree.node("b").instruction.raw == "River laughs by the river"


def test_renamed_place_text_keeps_the_character_and_time_fields() -> None:
    text = "Character: Park; Motion: walk in the park; Background: park; Time: night."
    assert renamed_place_text(text, "park", "garden") == (
        "Character: Park; Motion: walk in the garden; Background: garden; Time: night.")
    assert renamed_place_text(text, "park", "garden", background_only=True) == (
        "Character: Park; Motion: walk in the park; Background: garden; Time: night.")
    assert renamed_place_text("Qiqi sits in the parkland", "park", "garden") == "Qiqi sits in the parkland"


def test_a_rename_to_another_locations_name_or_a_bad_name_is_refused(project: Project) -> None:
    _harbour_project(project)
    with pytest.raises(CommandError, match="already exists"):
        project.apply(RenameLocation("h", "MARKET"))
    with pytest.raises(CommandError, match="ends a field"):
        project.apply(RenameLocation("h", "port; east"))
    with pytest.raises(CommandError, match="needs a name"):
        project.apply(RenameLocation("h", "  "))
    project.apply(RenameLocation("h", "Harbour"))  # its own name in another case
    assert project.tree.locations["h"].name == "Harbour"


def test_a_removal_keeps_the_turns_text_and_undoes(project: Project) -> None:
    _harbour_project(project)
    project.apply(RemoveLocation("h"))
    assert "h" not in project.tree.locations
    assert project.tree.node("a").instruction.raw == "Character: Qiqi; Motion: run; Background: day harbour."
    project.undo()
    assert project.tree.locations["h"].image_path == "media/locations/h.png"
    with pytest.raises(CommandError, match="No location"):
        project.apply(RemoveLocation("nope"))
