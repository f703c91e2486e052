"""Renaming a character replaces its name as whole words in the turns' instructions, but not in
where and when a turn is set: a character named like a place's word ("Park", "Mei" of "Mei's
bakery") rewrote the Background of every turn set there, so the turn moved elsewhere."""

from __future__ import annotations

from studio.core.commands import AddCastMember, AddTurn, RenameCastMember, replace_name, turns_naming
from studio.core.model import CastMember
from studio.storage import Project


def test_a_rename_leaves_the_background_and_time_as_they_are(project: Project) -> None:
    project.apply(AddCastMember(CastMember(id="m", name="Park")))
    project.apply(AddTurn(project.tree.root_id, "Character: Park; Motion: wave; Background: day park.", node_id="a"))
    project.apply(AddTurn("a", "Character: Yuzu; Motion: run; Background: park; Time: dusk; Park watches.",
                          node_id="b"))
    project.apply(AddTurn("b", "Character: Yuzu; Motion: sit; Background: night park.", node_id="c"))
    assert {n.id for n in turns_naming(project.tree, "Park")} == {"a", "b"}  # c is only set in the park

    project.apply(RenameCastMember("m", "Kai"))
    tree = project.tree
    assert tree.node("a").instruction.raw == "Character: Kai; Motion: wave; Background: day park."
    assert tree.node("a").instruction.background == "park"
    assert tree.node("b").instruction.raw == "Character: Yuzu; Motion: run; Background: park; Time: dusk; Kai watches."
    assert tree.node("c").instruction.raw == "Character: Yuzu; Motion: sit; Background: night park."


def test_replace_name_outside_the_place_fields() -> None:
    text = "Mei bakes; Background: Mei's bakery, morning; Character: Mei"
    assert replace_name(text, "mei", "Ana") == "Ana bakes; Background: Mei's bakery, morning; Character: Ana"
    assert replace_name("Character: Mei", "Mei", r"\1 Ana") == r"Character: \1 Ana"  # taken as it is
