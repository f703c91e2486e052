"""Window operations interleaved with job results arriving, through the one writer.

A live generation service (an in-process fake engine on a device thread) makes takes
while the test, playing the window, edits, undoes, selects takes and deletes subtrees:
some operations wait for their result, others are submitted and left running (as the
window does), and re-rolls, new turns and branch re-rolls keep jobs coming. After every
step the document invariants of ``tests/storage/test_document_stateful.py`` are checked
on a snapshot of the tree taken while the worker keeps going; the comparison with the
file on disk runs as an operation on the writer, so that it sees the database exactly as
the tree it compares.

Rules draw plain numbers and pick what they act on from the tree as it is when they run:
what the worker did meanwhile changes the outcome, never what is drawn.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from concurrent.futures import Future
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from storage.test_document_stateful import DocumentMachine, snapshot, texts  # tests/ is on sys.path

from studio.core import DeleteSubtree, EditInstruction, SelectTake
from studio.core.errors import StudioError
from studio.storage import Project
from studio.worker import GenerationService, HostMode

from .fake_engine import FakeScript, fake_registry

picks = st.integers(0, 10_000)


class InterleavedMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp())
        self.project = Project.create(self.folder / "p")
        self.script = FakeScript()
        self.service = GenerationService(self.project, fake_registry(self.script, "fake"), default_engine="fake",
                                         hosts=HostMode.IN_PROCESS)
        self.service.start()
        self.pending: list[Future[object]] = []
        self.refused = 0

    def teardown(self) -> None:
        self.service.stop(cancel_running=True, timeout=10)
        self.settle_submitted()
        if os.environ.get("KAMISHIBAI_INTERLEAVING_STATS"):
            jobs = self.service.jobs(include_finished=True)
            print("interleaving:", len(jobs), "jobs,", sum(j.status.value == "done" for j in jobs), "done,",
                  len(self.tree.nodes), "nodes,", len(self.tree.takes), "takes,", self.refused, "refused")
        self.project.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def tree(self):  # type: ignore[no-untyped-def]
        return self.project.tree

    def turns(self) -> list[str]:
        return sorted(n.id for n in self.tree.nodes.values() if not n.is_root)

    def pick_turn(self, pick: int) -> str | None:
        turns = self.turns()
        return turns[pick % len(turns)] if turns else None

    def pick_node(self, pick: int) -> str:
        nodes = sorted(self.tree.nodes)
        return nodes[pick % len(nodes)]

    def settle_submitted(self) -> None:
        """What was submitted has run; a command whose turn an earlier operation deleted is
        refused with a StudioError and changes nothing."""
        for future in self.pending:
            error = future.exception(timeout=10)
            assert error is None or isinstance(error, StudioError), repr(error)
            self.refused += error is not None
        self.pending.clear()

    def run_or_submit(self, wait: bool, fn) -> None:  # type: ignore[no-untyped-def]
        future = self.service.writer.submit(fn)
        self.pending.append(future)
        if wait:
            self.settle_submitted()

    # -- jobs ---------------------------------------------------------------------------------

    @rule(pick=picks, text=texts)
    def generate_turn(self, pick, text):
        try:
            self.service.generate(self.pick_node(pick), text)
        except StudioError:  # the node went between the pick and the call
            self.refused += 1

    @rule(pick=picks)
    def reroll(self, pick):
        node_id = self.pick_turn(pick)
        if node_id is not None:
            try:
                self.service.reroll(node_id)
            except StudioError:
                self.refused += 1

    @rule(pick=picks)
    def reroll_branch(self, pick):
        try:
            self.service.reroll_branch(self.pick_node(pick))
        except StudioError:
            self.refused += 1

    @rule()
    def results_arrive(self):
        assert self.service.wait_idle(10)

    # -- window operations ---------------------------------------------------------------------

    @rule(pick=picks, text=texts, wait=st.booleans())
    def edit(self, pick, text, wait):
        node_id = self.pick_turn(pick)
        if node_id is not None:
            self.run_or_submit(wait, lambda: self.project.apply(EditInstruction(node_id, text)))

    @rule(pick=picks, which=picks, wait=st.booleans())
    def select_take(self, pick, which, wait):
        tree = self.tree
        with_takes = [n for n in self.turns() if tree.takes_of(n)]
        if with_takes:
            node_id = with_takes[pick % len(with_takes)]
            takes = tree.takes_of(node_id)
            take_id = takes[which % len(takes)].id
            self.run_or_submit(wait, lambda: self.project.apply(SelectTake(node_id, take_id)))

    @rule(pick=picks, wait=st.booleans())
    def delete_subtree(self, pick, wait):
        node_id = self.pick_turn(pick)
        if node_id is not None:
            self.run_or_submit(wait, lambda: self.project.apply(DeleteSubtree(node_id)))

    @rule(wait=st.booleans())
    def undo(self, wait):
        self.run_or_submit(wait, self.project.undo)

    @rule(wait=st.booleans())
    def redo(self, wait):
        self.run_or_submit(wait, self.project.redo)

    @rule()
    def undo_then_redo_restores(self):
        """As one operation: no take lands between the two."""
        def both() -> tuple[dict, dict] | None:
            if not self.project.document.history.done:
                return None
            before = snapshot(self.project)
            self.project.undo()
            self.project.redo()
            return before, snapshot(self.project)

        result = self.project.document.change(both)
        if result is not None:
            assert result[1] == result[0]

    # -- invariants ----------------------------------------------------------------------------

    @invariant()
    def document_invariants(self):
        """The stateful document test's checks, on one snapshot taken now."""
        frozen = _Frozen(self.project, self.project.tree)
        DocumentMachine.structure(frozen)  # type: ignore[arg-type]
        DocumentMachine.state_is_fold_of_deltas(frozen)  # type: ignore[arg-type]
        DocumentMachine.stale_flags_match_history(frozen)  # type: ignore[arg-type]
        for take in frozen.tree.takes.values():
            for rel in (take.clip_path, take.poster_path, take.representation_path):
                assert not rel or self.project.resolve(rel).is_file(), f"take {take.id} points at missing {rel}"

    @invariant()
    def disk_matches_memory(self):
        def compare() -> None:  # on the writer: nothing is written meanwhile
            with Project.open(self.project.path, read_only=True) as reopened:
                assert snapshot(reopened) == snapshot(self.project)
                assert reopened.tree.cast == self.tree.cast

        self.project.document.change(compare)


class _Frozen:
    """What the reused invariant checks read (``self.tree``), pinned to one snapshot."""

    def __init__(self, project: Project, tree) -> None:  # type: ignore[no-untyped-def]
        self.project = project
        self.tree = tree


InterleavedMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=30, deadline=None, suppress_health_check=[HealthCheck.too_slow],
)
TestInterleaved = InterleavedMachine.TestCase
