"""The one writer: every change runs on its thread; readers hold snapshots that never change."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from studio.core import AddTurn, EditInstruction
from studio.core.commands import CommandError
from studio.storage import Project
from studio.worker.writer import Writer


@pytest.fixture
def project(tmp_path: Path):  # type: ignore[no-untyped-def]
    with Project.create(tmp_path / "p") as made:
        yield made


def test_changes_from_any_thread_run_on_the_writer(project: Project) -> None:
    writer = Writer(project)
    seen: list[str] = []
    project.document.subscribe(lambda changes: seen.append(threading.current_thread().name))
    root = project.tree.root_id
    project.apply(AddTurn(root, "from the caller's thread", node_id="a"))  # waits, runs on the writer
    changes = writer.apply(AddTurn(root, "submitted", node_id="b")).result(5)
    assert changes.added and seen == ["kamishibai-writer", "kamishibai-writer"]
    with pytest.raises(CommandError):  # a refused command comes back to the caller
        writer.apply(EditInstruction("missing", "x")).result(5)
    writer.detach()
    project.apply(AddTurn(root, "no writer: on the caller's thread", node_id="c"))
    assert seen[-1] == threading.current_thread().name


def test_a_snapshot_never_changes(project: Project) -> None:
    Writer(project)
    root = project.tree.root_id
    before = project.tree
    project.apply(AddTurn(root, "one", node_id="a"))
    after = project.tree
    project.apply(EditInstruction("a", "two"))
    assert "a" not in before.nodes and before.child_ids(root) == []
    assert after.nodes["a"].instruction.raw == "one" and project.tree.nodes["a"].instruction.raw == "two"
    project.undo()
    assert project.tree.nodes["a"].instruction.raw == "one" and after.child_ids(root) == ["a"]


def test_a_failed_write_leaves_the_published_tree_as_it_was(project: Project) -> None:
    Writer(project)
    before = project.tree
    project.database.close()  # every write now fails
    with pytest.raises(Exception):  # noqa: B017 — whatever the database raises
        project.apply(AddTurn(before.root_id, "lost", node_id="a"))
    assert project.tree is before
