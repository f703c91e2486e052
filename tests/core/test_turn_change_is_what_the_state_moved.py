"""The change shown beside a value is how far the turn moved it (after clamping to 0..100),
not the engine's predicted delta times five."""

from __future__ import annotations

from studio.core import (
    AddTake,
    AddTurn,
    CharacterState,
    Document,
    SetStartState,
    SetStateScope,
    StateDeltas,
    StateScope,
    StoryTree,
    Take,
)
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Node
from studio.core.state import StateChange, turn_change


def _story(turns: list[tuple[str, str, str, StateDeltas]], scope: StateScope = StateScope.CHARACTER) -> Document:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""), start_state=CharacterState(),
                state_scope=scope)
    document = Document(StoryTree.from_entities([root, CastMember("c1", "Qiqi"), CastMember("c2", "Mei")]))
    for node_id, parent, text, deltas in turns:
        document.apply(AddTurn(parent, text, node_id=node_id))
        document.apply(AddTake(Take(id=f"t-{node_id}", node_id=node_id, engine="fake", deltas=deltas,
                                    instruction_raw=text)))
    return document


def test_a_stat_running_into_0_or_100_shows_what_it_moved() -> None:
    document = _story([("q1", "root", "Character: Qiqi; Motion: run", StateDeltas(-3, 2, 1)),
                       ("q2", "q1", "Character: Qiqi; Motion: run", StateDeltas(-3, 2, -1))])
    document.apply(SetStartState("Qiqi", CharacterState(5, 95, 50)))
    tree = document.tree
    assert tree.state_of("q1") == CharacterState(0, 100, 55)
    assert turn_change(tree, "q1") == StateChange(-5, 5, 5)  # predicted -15, +10, +5
    assert turn_change(tree, "q2") == StateChange(0, 0, -5)  # already at 0 and 100: nothing moved
    assert turn_change(tree, "root") == StateChange()


def test_each_character_moves_from_their_own_state() -> None:
    document = _story([("q1", "root", "Character: Qiqi; Motion: run", StateDeltas(-4, 0, 0)),
                       ("m1", "q1", "Character: Mei; Motion: sit", StateDeltas(-4, 0, 0)),
                       ("q2", "m1", "Character: Qiqi; Motion: run", StateDeltas(-4, 0, 0))])
    document.apply(SetStartState("Qiqi", CharacterState(30, 50, 50)))
    document.apply(SetStartState("Mei", CharacterState(90, 50, 50)))
    tree = document.tree
    assert [turn_change(tree, n).stamina for n in ("q1", "m1", "q2")] == [-20, -20, -10]  # Qiqi: 30, 10, 0
    document.apply(SetStateScope(StateScope.BRANCH))  # one state down the branch: 50, 30, 10, 0
    tree = document.tree
    assert [turn_change(tree, n).stamina for n in ("q1", "m1", "q2")] == [-20, -20, -10]
    assert tree.state_of("q2").stamina == 0


def test_a_turn_without_a_take_changes_nothing() -> None:
    document = _story([("q1", "root", "Character: Qiqi; Motion: run", StateDeltas(-3, 0, 0))])
    document.apply(AddTurn("q1", "Character: Qiqi; Motion: sit", node_id="bare"))
    assert turn_change(document.tree, "bare") == StateChange()


def test_the_change_is_after_minus_before() -> None:
    assert CharacterState(0, 100, 55).change_from(CharacterState(5, 95, 50)).as_dict() == {
        "stamina": -5, "social": 5, "entertainment": 5}
    assert StateChange.predicted(StateDeltas(-3, 2, 1)) == StateChange(-15, 10, 5)
