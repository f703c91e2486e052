"""A story whose cast is Aoi and Yuzu (and a place named Hana Park), for the tests of names
nobody in the cast has; and a story of a given cast whose turns follow one another, for the
tests of who acts."""

from __future__ import annotations

from collections.abc import Sequence

from studio.core import AddTurn, CharacterState, Document, StateScope, StoryTree
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location, Node
from studio.core.subject import unlisted_subject


def cast_story() -> Document:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""), start_state=CharacterState())
    return Document(StoryTree.from_entities([root, CastMember("c1", "Aoi"), CastMember("c2", "Yuzu"),
                                             Location("l1", "Hana Park")]))


def add_turn(document: Document, parent: str, node_id: str, text: str) -> str:
    """Add a turn; the warning about a name nobody in the cast has ('' for none)."""
    document.apply(AddTurn(parent, text, node_id=node_id))
    return unlisted_subject(document.tree, node_id)


def turns_in_a_row(cast: Sequence[str], *texts: str, places: Sequence[str] = ()) -> StoryTree:
    """A story of ``cast`` (and ``places``) whose turns of ``texts`` follow one another from its
    start, each character keeping their own state; their ids are n0, n1, …"""
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""), start_state=CharacterState(),
                state_scope=StateScope.CHARACTER)
    document = Document(StoryTree.from_entities([root, *(CastMember(f"c{k}", name) for k, name in enumerate(cast)),
                                                 *(Location(f"l{k}", name) for k, name in enumerate(places))]))
    parent = "root"
    for number, text in enumerate(texts):
        document.apply(AddTurn(parent, text, node_id=f"n{number}"))
        parent = f"n{number}"
    return document.tree
