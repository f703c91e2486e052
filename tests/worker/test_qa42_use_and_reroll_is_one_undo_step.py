"""Choosing another take and re-rolling the turns it made stale is one action of the author's:
one Undo gives the turn its former take back and takes away every re-rolled take, in the tree
and in the project file; one Redo brings both back. The Edit menu's step names the whole action."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from studio.storage import Project
from studio.worker import JobStatus


def _chosen(project: Project, node_ids: list[str]) -> dict[str, tuple[str | None, int]]:
    tree = project.tree
    return {n: (tree.node(n).selected_take_id, len(tree.takes_of(n))) for n in node_ids}


def _stored(project: Project, node_ids: list[str]) -> dict[str, tuple[str | None, int]]:
    database = sqlite3.connect(Path(project.path) / "project.db")
    try:
        out = {}
        for node_id in node_ids:
            (selected,) = database.execute("SELECT selected_take_id FROM nodes WHERE id = ?", (node_id,)).fetchone()
            (count,) = database.execute("SELECT COUNT(*) FROM takes WHERE node_id = ?", (node_id,)).fetchone()
            out[node_id] = (selected, count)
        return out
    finally:
        database.close()


def test_the_choice_and_its_reroll_undo_and_redo_together(project, make_service) -> None:
    service = make_service()
    top, _ = service.generate(project.tree.root_id, "a")
    middle, _ = service.generate(top, "b")
    below, _ = service.generate(middle, "c")
    assert service.wait_idle(30)
    [other] = service.reroll_many(top, 1)
    assert service.wait_jobs([other], 30) and service.wait_idle(30)
    turns = [top, middle, below]
    before = _chosen(project, turns)
    former = project.tree.node(top).selected_take_id
    new = next(t.id for t in project.tree.takes_of(top) if t.id != former)
    label_before = project.document.history.undo_label

    jobs = service.choose_and_reroll(top, new, only={middle, below}, chosen="take 2 of turn 1")
    assert len(jobs) == 2 and service.wait_jobs(jobs, 30)
    assert all(service.job(j).status is JobStatus.DONE for j in jobs)
    after = _chosen(project, turns)
    assert after[top] == (new, 2)
    assert all(after[n][1] == 2 and after[n][0] != before[n][0] for n in (middle, below))
    assert not any(project.tree.selected_take(n).stale for n in (middle, below))
    assert project.document.history.undo_label == "Use take 2 of turn 1 and re-roll 2 turns"

    project.undo()
    assert _chosen(project, turns) == before == _stored(project, turns), "one Undo: the former take and no new take"
    assert project.tree.node(top).selected_take_id == former
    assert project.document.history.undo_label == label_before
    assert project.document.history.redo_label == "Use take 2 of turn 1 and re-roll 2 turns"

    project.redo()
    assert _chosen(project, turns) == after == _stored(project, turns)


def test_the_step_says_how_far_the_reroll_is_while_its_takes_land(project, make_service, script) -> None:
    service = make_service()
    script.release.set()
    top, _ = service.generate(project.tree.root_id, "a")
    middle, _ = service.generate(top, "b")
    below, _ = service.generate(middle, "c [block]")
    assert service.wait_idle(30)
    [other] = service.reroll_many(top, 1)
    assert service.wait_jobs([other], 30) and service.wait_idle(30)
    former = project.tree.node(top).selected_take_id
    new = next(t.id for t in project.tree.takes_of(top) if t.id != former)
    script.release.clear()
    script.started.clear()

    jobs = service.choose_and_reroll(top, new, only={middle, below}, chosen="take 2 of turn 1")
    try:
        assert script.started.wait(30), "the lower turn's job starts once the middle one's take landed"
        assert project.tree.node(top).selected_take_id == new
        assert len(project.tree.takes_of(middle)) == 2
        assert project.document.history.undo_label == "Use take 2 of turn 1 and re-roll (1 of 2 turns)"
    finally:
        script.release.set()
    assert service.wait_jobs(jobs, 30)
    assert project.document.history.undo_label == "Use take 2 of turn 1 and re-roll 2 turns"
    project.undo()
    assert project.tree.node(top).selected_take_id == former
    assert len(project.tree.takes_of(middle)) == 1 and len(project.tree.takes_of(below)) == 1
