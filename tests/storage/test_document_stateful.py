"""Random sequences of edits, undo and redo against a real project file.

After every step: one root, no cycles, every parent exists, selected takes belong to their
node, every node's state is the fold of the deltas of its acting character's turns along
its path (or of every turn, in a branch-scoped story), and reopening the project from disk
gives the identical tree. Undo followed by redo restores the same tree.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from studio.core import (
    AddCastMember,
    AddDialogueLine,
    AddTake,
    AddTurn,
    CharacterState,
    DeleteSubtree,
    EditInstruction,
    Fork,
    MoveAmongSiblings,
    SelectTake,
    SetBookmark,
    SetDuration,
    SetNarration,
    SetNotes,
    SetStartState,
    SetStateScope,
    StateDeltas,
    StateScope,
    StoryFieldError,
    Take,
    TakeStatus,
)
from studio.core.model import CastMember
from studio.storage import Project

deltas = st.builds(StateDeltas, st.integers(-5, 5), st.integers(-5, 5), st.integers(-5, 5))
texts = st.sampled_from([
    "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
    "Character: Sosuke; Motion: quickly run; Background: night street",
    "Qiqi waves at the baker",
    "motion: jump; background: beach; camera: orbit",
    "Character: mei ; Motion: slowly walk; Background: sunset street",
    "Mei and Qiqi share bread at the bakery",
    "the wind blows through Qiqimei's hair",
])
states = st.builds(CharacterState, st.integers(0, 100), st.integers(0, 100), st.integers(0, 100))


def key(name: str) -> str:
    return " ".join(name.split()).casefold()


def expected_actor(tree, node_id: str) -> str:  # type: ignore[no-untyped-def]
    """Written apart from the studio's own code: the character, else the cast name the free
    text mentions first (whole words), else the previous turn's actor, else (no one named yet)
    the cast's first member."""
    actor = ""
    names = [m.name for m in tree.cast.values()]
    for step in tree.path_to(node_id)[1:]:
        ins = step.instruction
        if ins.character.strip():
            actor = ins.character.strip()
            continue
        found = [(m.start(), name) for name in names
                 for m in [re.search(rf"(?<!\w){re.escape(key(name))}(?!\w)", ins.free_text.casefold())] if m]
        if found:
            actor = min(found)[1]
        elif not actor:  # no one named yet: the engines draw the cast's first member
            actor = next((name for name in names if name.strip()), "")
    return actor


def expected_state(tree, node_id: str) -> CharacterState:  # type: ignore[no-untyped-def]
    root = tree.root
    default = root.start_state or CharacterState()
    path = tree.path_to(node_id)[1:]
    if root.state_scope is StateScope.BRANCH:
        state = default
        for step in path:
            take = tree.takes.get(step.selected_take_id) if step.selected_take_id else None
            if take is not None:
                state = state.apply(take.deltas)
        return state
    starts = {key(name): s for name, s in root.start_states.items()}
    current = {"": default, **starts}
    for step in path:
        take = tree.takes.get(step.selected_take_id) if step.selected_take_id else None
        if take is not None:
            who = key(expected_actor(tree, step.id))
            current[who] = current.get(who, starts.get(who, default)).apply(take.deltas)
    who = key(expected_actor(tree, node_id))
    return current.get(who, starts.get(who, default))


def snapshot(project: Project) -> dict:
    return {key: entity for key, entity in ((("n", n.id), n) for n in project.tree.nodes.values())} | {
        ("t", t.id): t for t in project.tree.takes.values()
    }


NOTES = st.text(st.characters(exclude_categories=("Cc", "Cs")) | st.sampled_from("\n\t"), max_size=20)
"""What a node's notes may hold: line breaks and tabs, no other control character."""

class DocumentMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp())
        self.project = Project.create(self.folder / "p")
        self.counter = 0

    def next_id(self, prefix: str) -> str:
        """Ids in creation order, so that the drawn data is the same on replay."""
        self.counter += 1
        return f"{prefix}{self.counter:05d}"

    def teardown(self) -> None:
        self.project.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def tree(self):  # type: ignore[no-untyped-def]
        return self.project.tree

    def turns(self) -> list[str]:
        return sorted(n.id for n in self.tree.nodes.values() if not n.is_root)

    @rule(data=st.data(), text=texts)
    def add_turn(self, data, text):
        parent = data.draw(st.sampled_from(sorted(self.tree.nodes)))
        self.project.apply(AddTurn(parent, text, node_id=self.next_id("n")))

    @precondition(lambda self: len(self.tree.nodes) > 1)
    @rule(data=st.data())
    def fork(self, data):
        self.project.apply(Fork(data.draw(st.sampled_from(self.turns())), new_node_id=self.next_id("n")))

    @precondition(lambda self: len(self.tree.nodes) > 1)
    @rule(data=st.data(), text=texts)
    def edit(self, data, text):
        self.project.apply(EditInstruction(data.draw(st.sampled_from(self.turns())), text))

    @precondition(lambda self: len(self.tree.nodes) > 1)
    @rule(data=st.data())
    def delete(self, data):
        self.project.apply(DeleteSubtree(data.draw(st.sampled_from(self.turns()))))

    @precondition(lambda self: len(self.tree.nodes) > 1)
    @rule(data=st.data(), index=st.integers(-1, 5))
    def move(self, data, index):
        self.project.apply(MoveAmongSiblings(data.draw(st.sampled_from(self.turns())), index))

    @precondition(lambda self: len(self.tree.nodes) > 1)
    @rule(data=st.data(), d=deltas, select=st.booleans(), failed=st.booleans())
    def add_take(self, data, d, select, failed):
        node_id = data.draw(st.sampled_from(self.turns()))
        node = self.tree.node(node_id)
        parent_take = self.tree.node(node.parent_id).selected_take_id or ""
        take = Take(id=self.next_id("t"), node_id=node_id, engine="fake", seed=data.draw(st.integers(0, 2**31 - 1)),
                    deltas=d, motion_level=data.draw(st.integers(1, 5)),
                    status=TakeStatus.FAILED if failed else TakeStatus.DONE,
                    parent_take_id=parent_take, instruction_raw=node.instruction.raw)
        self.project.apply(AddTake(take, select=select))

    @precondition(lambda self: any(self.tree.takes_of(n) for n in self.turns()))
    @rule(data=st.data())
    def select(self, data):
        node_id = data.draw(st.sampled_from([n for n in self.turns() if self.tree.takes_of(n)]))
        take = data.draw(st.sampled_from(self.tree.takes_of(node_id)))
        self.project.apply(SelectTake(node_id, take.id))

    @rule(data=st.data(), flag=st.booleans(), notes=NOTES)
    def annotate(self, data, flag, notes):
        node_id = data.draw(st.sampled_from(sorted(self.tree.nodes)))
        self.project.apply(SetBookmark(node_id, flag))
        self.project.apply(SetNotes(node_id, notes))

    @rule(name=st.sampled_from(["Qiqi", "Mei"]))
    def add_cast(self, name):
        if all(m.name != name for m in self.tree.cast.values()):
            self.project.apply(AddCastMember(CastMember(id=self.next_id("c"), name=name)))

    @rule(name=st.sampled_from(["", "Qiqi", "mei", "Sosuke"]), state=states)
    def start_state(self, name, state):
        before = {node_id: self.tree.state_before(node_id) for node_id in self.turns()}
        self.project.apply(SetStartState(name, state))
        for node_id, was in before.items():  # a turn now started from another state: its takes are out of date
            if self.tree.state_before(node_id) != was:
                assert all(take.stale for take in self.tree.takes_of(node_id))

    @rule(scope=st.sampled_from(list(StateScope)))
    def scope(self, scope):
        self.project.apply(SetStateScope(scope))

    @precondition(lambda self: len(self.tree.nodes) > 1)
    @rule(data=st.data(), text=st.text(min_size=1, max_size=12).filter(str.strip),
          seconds=st.one_of(st.none(), st.floats(0.1, 600)))
    def story(self, data, text, seconds):
        node_id = data.draw(st.sampled_from(self.turns()))
        try:
            self.project.apply(AddDialogueLine(node_id, "Qiqi", text))
            self.project.apply(SetNarration(node_id, text))
        except StoryFieldError:  # a control character: refused, and nothing changed
            pass
        self.project.apply(SetDuration(node_id, seconds))

    @rule()
    def undo(self):
        self.project.undo()

    @rule()
    def redo(self):
        self.project.redo()

    @precondition(lambda self: self.project.document.history.done)
    @rule()
    def undo_then_redo_restores(self):
        before = snapshot(self.project)
        self.project.undo()
        self.project.redo()
        assert snapshot(self.project) == before

    @invariant()
    def structure(self):
        tree = self.tree
        roots = [n for n in tree.nodes.values() if n.parent_id is None]
        assert len(roots) == 1
        for node in tree.nodes.values():
            assert node.parent_id is None or node.parent_id in tree.nodes
            path = tree.path_to(node.id)  # raises on cycles
            assert path[0].id == roots[0].id
            if node.selected_take_id:
                assert tree.takes[node.selected_take_id].node_id == node.id
        for take in tree.takes.values():
            assert take.node_id in tree.nodes
        reachable = 1 + sum(1 for _ in tree.descendants(tree.root_id))
        assert reachable == len(tree.nodes)
        for parent_id in tree.nodes:
            positions = [c.position for c in tree.children(parent_id)]
            assert positions == list(range(len(positions)))

    @invariant()
    def state_is_fold_of_deltas(self):
        tree = self.tree
        for node in tree.nodes.values():
            assert tree.acting_character(node.id) == expected_actor(tree, node.id)
            assert tree.state_of(node.id) == expected_state(tree, node.id)
            if node.parent_id is not None:
                # what the turn starts from: its actor's state after the turn before
                take = tree.selected_take(node.id)
                assert tree.state_of(node.id) == (tree.state_before(node.id).apply(take.deltas) if take
                                                  else tree.state_before(node.id))

    @invariant()
    def stale_flags_match_history(self):
        tree = self.tree
        for node in tree.nodes.values():
            if node.is_root:
                continue
            parent = tree.node(node.parent_id)
            context = parent.selected_take_id or ""
            fresh_context = not context or not tree.takes[context].stale
            for take in tree.takes_of(node.id):
                same_text = take.instruction_raw == node.instruction.raw
                fresh = take.parent_take_id == context and fresh_context and same_text
                # out of date where its history says so; also where the story's start changed
                # under it (SetStartState), which the parents and texts do not show
                assert take.stale or fresh

    @invariant()
    def reopen_gives_identical_tree(self):
        with Project.open(self.project.path, read_only=True) as reopened:
            assert snapshot(reopened) == snapshot(self.project)
            assert reopened.tree.cast == self.tree.cast
            for node_id in self.tree.nodes:
                assert reopened.tree.state_of(node_id) == self.tree.state_of(node_id)


DocumentMachine.TestCase.settings = settings(
    max_examples=200, stateful_step_count=20, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestDocument = DocumentMachine.TestCase
