"""A story whose cast is Aoi and Yuzu (and a place named Hana Park), for the tests of names
nobody in the cast has."""

from __future__ import annotations

from studio.core import AddTurn, CharacterState, Document, StoryTree
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
