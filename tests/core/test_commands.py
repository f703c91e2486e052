import pytest

from studio.core import (
    AddTake,
    AddTurn,
    DeleteSubtree,
    Document,
    EditInstruction,
    Fork,
    MoveAmongSiblings,
    SelectTake,
    StateDeltas,
    StoryTree,
    Take,
)
from studio.core.changes import EntityKind
from studio.core.commands import CommandError
from studio.core.instruction import InstructionError, parse_instruction
from studio.core.model import Node


@pytest.fixture
def doc() -> Document:
    root = Node(id="root", parent_id=None, instruction=parse_instruction(""))
    return Document(StoryTree.from_entities([root]))


def take(node: str, ident: str, parent_take: str = "", d=(0, 0, 0), raw: str = "") -> Take:
    return Take(id=ident, node_id=node, engine="fake", deltas=StateDeltas(*d), parent_take_id=parent_take,
                instruction_raw=raw)


def test_select_other_take_marks_descendants_stale_and_undo_clears(doc: Document) -> None:
    doc.apply(AddTurn("root", "a", node_id="a"))
    doc.apply(AddTake(take("a", "a1", raw="a", d=(-1, 0, 0))))
    doc.apply(AddTake(take("a", "a2", raw="a", d=(2, 0, 0)), select=False))
    doc.apply(AddTurn("a", "b", node_id="b"))
    doc.apply(AddTake(take("b", "b1", parent_take="a1", raw="b")))
    doc.apply(AddTurn("b", "c", node_id="c"))
    doc.apply(AddTake(take("c", "c1", parent_take="b1", raw="c")))
    tree = doc.tree
    assert not tree.takes["b1"].stale and not tree.takes["c1"].stale
    assert tree.state_of("c").stamina == 45
    changes = doc.apply(SelectTake("a", "a2"))
    assert not tree.takes["b1"].stale, "a snapshot taken before never changes"
    tree = doc.tree
    assert tree.takes["b1"].stale and tree.takes["c1"].stale
    assert changes.changed[EntityKind.TAKE] == {"b1", "c1"}
    assert tree.state_of("c").stamina == 60
    doc.undo()
    tree = doc.tree
    assert not tree.takes["b1"].stale and not tree.takes["c1"].stale
    doc.redo()
    doc.apply(SelectTake("a", "a1"))
    tree = doc.tree
    assert not tree.takes["b1"].stale and not tree.takes["c1"].stale, "back to the original past: fresh again"


def test_edit_instruction_makes_takes_stale(doc: Document) -> None:
    doc.apply(AddTurn("root", "a", node_id="a"))
    doc.apply(AddTake(take("a", "a1", raw="a")))
    doc.apply(AddTurn("a", "b", node_id="b"))
    doc.apply(AddTake(take("b", "b1", parent_take="a1", raw="b")))
    doc.apply(EditInstruction("a", "a changed"))
    assert doc.tree.takes["a1"].stale and doc.tree.takes["b1"].stale
    doc.undo()
    assert not doc.tree.takes["a1"].stale


def test_fork_move_delete_and_undo(doc: Document) -> None:
    doc.apply(AddTurn("root", "one", node_id="x"))
    doc.apply(AddTurn("x", "child", node_id="y"))
    doc.apply(Fork("x", new_node_id="x2"))
    assert [n.id for n in doc.tree.children("root")] == ["x", "x2"]
    assert doc.tree.node("x2").instruction.raw == "one"
    doc.apply(MoveAmongSiblings("x2", 0))
    assert [n.id for n in doc.tree.children("root")] == ["x2", "x"]
    doc.apply(DeleteSubtree("x"))
    assert set(doc.tree.nodes) == {"root", "x2"}
    doc.undo()
    assert set(doc.tree.nodes) == {"root", "x", "x2", "y"}
    assert doc.history.undo_label == "Move turn"
    assert doc.history.redo_label == "Delete turns"


def test_bad_commands_are_refused_without_change(doc: Document) -> None:
    with pytest.raises(InstructionError):
        doc.apply(AddTurn("root", "  "))
    with pytest.raises(InstructionError):
        doc.apply(AddTurn("root", "x" * 5000))
    with pytest.raises(CommandError):
        doc.apply(DeleteSubtree("root"))
    with pytest.raises(CommandError):
        doc.apply(AddTurn("nope", "text"))
    doc.apply(AddTurn("root", "a", node_id="a"))
    doc.apply(AddTurn("root", "b", node_id="b"))
    doc.apply(AddTake(take("b", "b1")))
    with pytest.raises(CommandError, match="is not a take of turn"):
        doc.apply(SelectTake("a", "b1"))
    assert len(doc.tree.nodes) == 3 and doc.tree.node("a").selected_take_id is None


def test_failed_persist_leaves_tree_unchanged(doc: Document) -> None:
    def broken(_patch):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    doc.persist = broken
    with pytest.raises(OSError):
        doc.apply(AddTurn("root", "a", node_id="a"))
    assert set(doc.tree.nodes) == {"root"}
    assert not doc.history.done


def test_change_outside_history_ends_it(doc: Document) -> None:
    doc.apply(AddTurn("root", "a", node_id="a"))
    doc.apply(AddTake(take("a", "a1", raw="a")), undoable=False)
    assert doc.undo() is None, "undoing AddTurn now would orphan the take"
    assert "a1" in doc.tree.takes


def test_a_cast_name_is_one_name_whatever_its_case_and_holds_no_field_syntax(doc: Document) -> None:
    """Start states and turns compare names casefolded: "STRASSE" is Straße, so adding it would
    have given two characters one start state (the first one's lost)."""
    from studio.core.commands import AddCastMember, SetStartState
    from studio.core.model import CastMember
    from studio.core.state import CharacterState

    doc.apply(AddCastMember(CastMember(id="s1", name="Straße")))
    doc.apply(SetStartState("Straße", CharacterState(11, 11, 11)))
    with pytest.raises(CommandError, match="already exists"):
        doc.apply(AddCastMember(CastMember(id="s2", name="STRASSE")))
    with pytest.raises(CommandError, match="already exists"):
        doc.apply(AddCastMember(CastMember(id="s3", name="  straße ")))
    assert [m.name for m in doc.tree.cast.values()] == ["Straße"]
    assert doc.tree.start_state_of("Straße") == CharacterState(11, 11, 11)
    for bad in ("Mei; Motion: run", "Dr: Who"):
        with pytest.raises(CommandError, match="instructions use between fields"):
            doc.apply(AddCastMember(CastMember(id="x", name=bad)))


def test_renaming_a_character_follows_it_into_its_start_state_and_turns_and_undoes(doc: Document) -> None:
    from studio.core.commands import AddCastMember, RenameCastMember, SetStartState
    from studio.core.model import CastMember
    from studio.core.state import CharacterState

    doc.apply(AddCastMember(CastMember(id="m", name="Mei")))
    doc.apply(AddCastMember(CastMember(id="q", name="Qiqi")))
    doc.apply(SetStartState("Mei", CharacterState(70, 20, 30)))
    doc.apply(AddTurn("root", "Character: mei ; Motion: wave; Background: day town; she smiles", node_id="a"))
    doc.apply(AddTake(take("a", "a1", raw="Character: mei ; Motion: wave; Background: day town; she smiles")))
    doc.apply(AddTurn("a", "Character: Qiqi; Motion: run", node_id="b"))
    before = doc.tree
    doc.apply(RenameCastMember("m", "May"))
    tree = doc.tree
    assert tree.cast["m"].name == "May"
    assert tree.node("a").instruction.raw == "Character: May ; Motion: wave; Background: day town; she smiles"
    assert tree.node("b").instruction.raw == "Character: Qiqi; Motion: run"
    assert tree.start_state_of("May") == CharacterState(70, 20, 30) and "Mei" not in tree.root.start_states
    assert tree.takes["a1"].stale, "a take made for the old text is out of date"
    with pytest.raises(CommandError, match="already exists"):
        doc.apply(RenameCastMember("m", "QIQI"))
    doc.undo()
    assert doc.tree.cast == before.cast and doc.tree.node("a") == before.node("a")
    assert not doc.tree.takes["a1"].stale


def test_removing_a_character_takes_its_start_state_and_leaves_its_turns(doc: Document) -> None:
    from studio.core.commands import AddCastMember, RemoveCastMember, SetStartState, turns_naming
    from studio.core.model import CastMember
    from studio.core.state import CharacterState

    doc.apply(AddCastMember(CastMember(id="m", name="Mei")))
    doc.apply(SetStartState("Mei", CharacterState(70, 20, 30)))
    doc.apply(AddTurn("root", "Character: Mei; Motion: wave", node_id="a"))
    assert [n.id for n in turns_naming(doc.tree, "MEI")] == ["a"]
    doc.apply(RemoveCastMember("m"))
    assert "m" not in doc.tree.cast and not doc.tree.root.start_states
    assert doc.tree.node("a").instruction.character == "Mei"
    doc.undo()
    assert doc.tree.cast["m"].name == "Mei" and doc.tree.start_state_of("Mei") == CharacterState(70, 20, 30)


def test_a_rename_reaches_the_free_text_and_the_lines_the_character_speaks(doc: Document) -> None:
    from studio.core.commands import AddCastMember, RenameCastMember, SetDialogue, SetStartState, turns_naming
    from studio.core.model import CastMember
    from studio.core.state import CharacterState
    from studio.core.story import DialogueLine

    doc.apply(AddCastMember(CastMember(id="y", name="Yuzu")))
    doc.apply(AddTurn("root", "Yuzu eats bread slowly in the bakery at night", node_id="a"))
    doc.apply(AddTurn("a", "Character: Qiqi; Motion: wave; Yuzuki waves back", node_id="b"))
    doc.apply(SetDialogue("b", (DialogueLine("Yuzu", "There you are!"), DialogueLine("Qiqi", "Yuzu!"))))
    assert [n.id for n in turns_naming(doc.tree, "Yuzu")] == ["a"], "whole words: not Yuzuki"
    doc.apply(RenameCastMember("y", "Mika"))
    tree = doc.tree
    assert tree.node("a").instruction.raw == "Mika eats bread slowly in the bakery at night"
    assert tree.node("b").instruction.raw == "Character: Qiqi; Motion: wave; Yuzuki waves back"
    assert [line.speaker for line in tree.node("b").story.dialogue] == ["Mika", "Qiqi"]
    assert tree.acting_character("a") == "Mika"
    doc.apply(SetStartState("Hana", CharacterState(5, 5, 5)))  # a character still to come
    doc.apply(SetStartState("Mika", CharacterState(90, 90, 90)))
    with pytest.raises(CommandError, match="already has a start state of its own"):
        doc.apply(RenameCastMember("y", "hana"))
    for bad in ("Mei；Lin", "Dr：Who"):
        with pytest.raises(CommandError, match="instructions use between fields"):
            doc.apply(RenameCastMember("y", bad))
