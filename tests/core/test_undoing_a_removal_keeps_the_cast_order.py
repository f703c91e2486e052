"""Removing a character and undoing it put the character back at the end of the cast: the
Start and Cast panels listed it last and a new turn under the Start defaulted to another
character (README: "else the first character of the cast"). Undo (and redo, then undo again)
now puts it back where it stood."""

from __future__ import annotations

import itertools
from pathlib import Path

from studio.core.changes import EntityKey, EntityKind, Patch
from studio.core.commands import AddCastMember, RemoveCastMember
from studio.core.model import CastMember, Location
from studio.core.tree import StoryTree
from studio.storage import Project


def _names(document: Project) -> list[str]:
    return [member.name for member in document.tree.cast.values()]


def test_undoing_a_removed_character_puts_it_back_in_its_place(tmp_path: Path) -> None:
    with Project.create(tmp_path / "story") as document:
        _remove_and_undo(document)


def _remove_and_undo(document: Project) -> None:
    for ident, name in (("m", "Mei"), ("q", "Qiqi"), ("y", "Yuzu")):
        document.apply(AddCastMember(CastMember(id=ident, name=name)))
    document.apply(RemoveCastMember("m"))
    assert _names(document) == ["Qiqi", "Yuzu"]
    document.undo()
    assert _names(document) == ["Mei", "Qiqi", "Yuzu"]
    document.redo()
    assert _names(document) == ["Qiqi", "Yuzu"]
    document.undo()
    assert _names(document) == ["Mei", "Qiqi", "Yuzu"]
    document.apply(RemoveCastMember("q"))
    document.undo()
    document.redo()
    document.undo()
    assert _names(document) == ["Mei", "Qiqi", "Yuzu"]


def test_any_members_removed_at_once_come_back_in_their_order() -> None:
    """Every set of cast members and locations removed in one patch, in any order the
    patch names them, comes back in the order it had."""
    cast = [CastMember(c, c.upper()) for c in "abcde"]
    places = [Location(f"p{c}", c) for c in "abc"]
    tree = StoryTree.from_entities([*cast, *places])
    keys: list[EntityKey] = [(EntityKind.CAST, m.id) for m in cast] + [(EntityKind.LOCATION, p.id) for p in places]
    for size in (1, 2, 3):
        for removed in itertools.permutations(keys, size):
            patch: Patch = dict.fromkeys(removed)
            smaller, reverse, _changes = tree.evolved(patch)
            restored, _again, _changes = smaller.evolved(reverse)
            assert list(restored.cast) == list(tree.cast), removed
            assert list(restored.locations) == list(tree.locations), removed
            assert restored.cast == tree.cast and restored.locations == tree.locations
