"""State per character: a turn changes its acting character's state, nobody else's."""

from __future__ import annotations

from studio.core import (
    AddCastMember,
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


def _story(scope: StateScope = StateScope.CHARACTER) -> Document:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""), start_state=CharacterState(),
                state_scope=scope)
    document = Document(StoryTree.from_entities([root, CastMember("c1", "Qiqi"), CastMember("c2", "Mei")]))
    turns = [
        ("q1", "root", "Character: Qiqi; Motion: run; Background: day town", StateDeltas(-4, 0, 2)),
        ("m1", "q1", "Character: Mei; Motion: sit; Background: day park", StateDeltas(1, 3, 0)),
        ("f1", "m1", "Mei waves at the baker", StateDeltas(0, 1, 0)),
        ("n1", "f1", "The wind blows", StateDeltas(0, 0, -1)),
        ("q2", "n1", "Character: qiqi; Motion: eat bread; Background: bakery", StateDeltas(1, 0, 1)),
    ]
    for node_id, parent, text, deltas in turns:
        document.apply(AddTurn(parent, text, node_id=node_id))
        document.apply(AddTake(Take(id=f"t-{node_id}", node_id=node_id, engine="fake", deltas=deltas,
                                    instruction_raw=text)))
    return document


def test_a_turn_of_mei_does_not_continue_from_qiqi() -> None:
    tree = _story().tree
    assert [tree.acting_character(n) for n in ("q1", "m1", "f1", "n1", "q2")] == ["Qiqi", "Mei", "Mei", "Mei",
                                                                                     "qiqi"]
    assert tree.state_of("q1") == CharacterState(30, 50, 60)
    assert tree.state_before("m1") == CharacterState(50, 50, 50)  # Mei starts fresh, not at Qiqi's 30
    assert tree.state_of("m1") == CharacterState(55, 65, 50)
    assert tree.state_of("n1") == CharacterState(55, 70, 45)  # free text without a name: still Mei's turn
    assert tree.state_before("q2") == CharacterState(30, 50, 60)  # Qiqi picks up where she left off
    assert tree.state_of("q2") == CharacterState(35, 50, 65)
    assert tree.cast_states("q2") == {"Qiqi": CharacterState(35, 50, 65), "Mei": CharacterState(55, 70, 45)}


def test_the_root_holds_each_cast_members_start_and_it_is_undoable() -> None:
    document = _story()
    document.apply(SetStartState("mei", CharacterState(10, 20, 30)))
    tree = document.tree
    assert tree.state_before("m1") == CharacterState(10, 20, 30)
    assert tree.state_of("m1") == CharacterState(15, 35, 30)
    assert tree.state_of("q1") == CharacterState(30, 50, 60)
    document.undo()
    assert document.tree.state_of("m1") == CharacterState(55, 65, 50)


def test_a_branch_scoped_story_keeps_one_state_down_the_branch() -> None:
    tree = _story(StateScope.BRANCH).tree
    assert tree.state_before("m1") == CharacterState(30, 50, 60)
    assert tree.state_of("q2") == CharacterState(40, 70, 60)
    document = _story(StateScope.BRANCH)
    document.apply(SetStateScope(StateScope.CHARACTER))
    assert document.tree.state_of("q2") == CharacterState(35, 50, 65)
    document.undo()
    assert document.tree.state_of("q2") == CharacterState(40, 70, 60)


def test_a_cast_member_named_in_free_text_acts_and_whole_words_only() -> None:
    document = _story()
    document.apply(AddCastMember(CastMember("c3", "Sosuke")))
    document.apply(AddTurn("q2", "Sosuke and Mei race to the sea", node_id="s1"))
    document.apply(AddTurn("q2", "Sosukes mother waves", node_id="s2"))
    assert document.tree.acting_character("s1") == "Sosuke"
    assert document.tree.acting_character("s2") == "qiqi"
