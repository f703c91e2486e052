"""The cast's order (its first member is a new turn's default character) and the locations'
order were not kept on disk: a member removed and put back by Undo got a new row, read back
last, so (remove Mei, undo) reopened as Qiqi, Yuzu, Mei. The database now keeps the order
the tree holds, through reopening and bundles."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from studio.core.changes import EntityKind, Patch
from studio.core.commands import AddCastMember, AddLocation, Command, RemoveCastMember, RenameCastMember
from studio.core.model import CastMember, Location
from studio.core.tree import StoryTree
from studio.storage import Project
from studio.storage.bundle import export_bundle, import_bundle


def _orders(project: Project) -> tuple[list[str], list[str]]:
    tree = project.tree
    return [m.name for m in tree.cast.values()], [loc.name for loc in tree.locations.values()]


def _story(path: Path) -> Project:
    project = Project.create(path)
    for ident, name in (("m", "Mei"), ("q", "Qiqi"), ("y", "Yuzu")):
        project.apply(AddCastMember(CastMember(id=ident, name=name)))
    for ident, name in (("p", "Park"), ("b", "Bakery"), ("s", "Station")):
        project.apply(AddLocation(Location(id=ident, name=name)))
    return project


def test_an_undone_removal_and_a_rename_keep_their_places_when_reopened(tmp_path: Path) -> None:
    with _story(tmp_path / "story") as project:
        project.apply(RemoveCastMember("m"))
        project.undo()
        project.apply(RemoveCastMember("q"))
        project.undo()
        project.redo()
        project.undo()
        project.apply(RenameCastMember("m", "Meiko"))
        expected = _orders(project)
        assert expected == (["Meiko", "Qiqi", "Yuzu"], ["Park", "Bakery", "Station"])
    with Project.open(tmp_path / "story.kamishibai") as reopened:
        assert _orders(reopened) == expected


class _RemoveLocations(Command):
    """Takes Park and Bakery out at once (the cast panel has no such command yet; undoing
    it is what any future one does)."""

    label: ClassVar[str] = "Remove locations"

    def build(self, tree: StoryTree) -> Patch:
        return {(EntityKind.LOCATION, "p"): None, (EntityKind.LOCATION, "b"): None}


def test_locations_put_back_by_undo_keep_their_places(tmp_path: Path) -> None:
    with _story(tmp_path / "story") as project:
        project.apply(_RemoveLocations())
        project.undo()
        assert _orders(project)[1] == ["Park", "Bakery", "Station"]
    with Project.open(tmp_path / "story.kamishibai", read_only=True) as reopened:
        assert _orders(reopened)[1] == ["Park", "Bakery", "Station"]


def test_a_bundle_keeps_the_order(tmp_path: Path) -> None:
    with _story(tmp_path / "story") as project:
        project.apply(RemoveCastMember("m"))
        project.undo()
        bundle = export_bundle(project, tmp_path / "story.zip")
    with import_bundle(bundle, tmp_path / "copy") as copy:
        assert _orders(copy) == (["Mei", "Qiqi", "Yuzu"], ["Park", "Bakery", "Station"])
