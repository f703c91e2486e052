"""Renaming a character moved it to the end of the cast order: the Start and Cast panels
listed it last, a new turn under the Start defaulted to another character, and a turn whose
free text names two characters changed hands. A rename (or any edit of a cast member or a
location) now keeps its place; undo and a reopened project keep it too."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from studio.core.changes import EntityKind
from studio.core.commands import AddCastMember, AddTurn, RenameCastMember
from studio.core.model import CastMember, Location
from studio.core.tree import StoryTree
from studio.storage import Project


def _names(project: Project) -> list[str]:
    return [member.name for member in project.tree.cast.values()]


def test_a_renamed_character_keeps_its_place_through_undo_and_reopening(tmp_path: Path) -> None:
    folder = tmp_path / "story"
    with Project.create(folder) as project:
        for ident, name in (("m", "Mei"), ("q", "Qiqi"), ("y", "Yuzu")):
            project.apply(AddCastMember(CastMember(id=ident, name=name)))
        project.apply(AddTurn(project.tree.root_id, "Mei and Qiqi walk to school", node_id="a"))
        assert project.tree.acting_character("a") == "Mei"
        project.apply(RenameCastMember("m", "May"))
        assert _names(project) == ["May", "Qiqi", "Yuzu"]
        assert project.tree.node("a").instruction.raw == "May and Qiqi walk to school"
        assert project.tree.acting_character("a") == "May", "the first character the text names acts"
        project.undo()
        assert _names(project) == ["Mei", "Qiqi", "Yuzu"]
        project.redo()
        assert _names(project) == ["May", "Qiqi", "Yuzu"]
    with Project.open(folder) as reopened:
        assert _names(reopened) == ["May", "Qiqi", "Yuzu"]
        assert reopened.tree.acting_character("a") == "May"


def test_an_edited_cast_member_or_location_keeps_its_place_in_the_tree() -> None:
    """The cast panel's reference images and a location's image are patched in place too."""
    tree = StoryTree.from_entities([CastMember("m", "Mei"), CastMember("q", "Qiqi"),
                                    Location("p", "park"), Location("s", "school")])
    edited, before, _changes = tree.evolved({
        (EntityKind.CAST, "m"): replace(tree.cast["m"], reference_images=("mei.png",)),
        (EntityKind.LOCATION, "p"): replace(tree.locations["p"], image_path="park.png"),
    })
    assert list(edited.cast) == ["m", "q"] and list(edited.locations) == ["p", "s"]
    assert edited.cast["m"].reference_images == ("mei.png",)
    restored, _again, _changes = edited.evolved(before)
    assert list(restored.cast.items()) == list(tree.cast.items())
    assert list(restored.locations.items()) == list(tree.locations.items())
    assert list(tree.cast) == ["m", "q"], "the tree evolved from is left as it was"
