"""A branch re-roll (and a re-roll of several takes at once) is one action: one Undo takes
back every take of it that has landed, one Redo brings them all back, in the tree and in
the project file. Something done between two of its takes starts a new undo step."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from studio.core.commands import SetBookmark
from studio.storage import Project
from studio.worker import JobStatus

from .fake_engine import FakeScript

Turns = dict[str, tuple[str | None, frozenset[str]]]


def _turns(project: Project, node_ids: list[str]) -> Turns:
    """Each turn's chosen take and its takes, as the open project has them."""
    tree = project.tree
    return {n: (tree.node(n).selected_take_id, frozenset(t.id for t in tree.takes_of(n))) for n in node_ids}


def _stored(project: Project, node_ids: list[str]) -> Turns:
    """The same, read back from the project file."""
    database = sqlite3.connect(Path(project.path) / "project.db")
    try:
        out: Turns = {}
        for node_id in node_ids:
            (selected,) = database.execute("SELECT selected_take_id FROM nodes WHERE id = ?", (node_id,)).fetchone()
            takes = database.execute("SELECT id FROM takes WHERE node_id = ?", (node_id,)).fetchall()
            out[node_id] = (selected, frozenset(row[0] for row in takes))
        return out
    finally:
        database.close()


def _chain(project: Project, service, texts: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
    """Turns one below the other from the start, each with a take."""
    parent, turns = project.tree.root_id, []
    for text in texts:
        parent, _job = service.generate(parent, text)
        turns.append(parent)
    assert service.wait_idle(30)
    return turns


def test_one_undo_takes_back_the_whole_branch_and_one_redo_brings_it_back(project, make_service) -> None:
    service = make_service()
    turns = _chain(project, service, ["a", "b", "c", "d"])
    before = _turns(project, turns)
    label_before = project.document.history.undo_label
    jobs = service.reroll_branch(turns[0])
    assert service.wait_jobs(jobs, 30)
    assert all(service.job(j).status is JobStatus.DONE for j in jobs)
    after = _turns(project, turns)
    assert all(after[n][0] != before[n][0] and len(after[n][1]) == 2 for n in turns)
    assert project.document.history.undo_label == "Re-roll branch (4 turns)"

    project.undo()
    assert _turns(project, turns) == before == _stored(project, turns)
    assert project.document.history.undo_label == label_before
    assert project.document.history.redo_label == "Re-roll branch (4 turns)"

    project.redo()
    assert _turns(project, turns) == after == _stored(project, turns)
    assert project.document.history.undo_label == "Re-roll branch (4 turns)"
    assert project.document.history.redo_label is None


def test_an_edit_between_two_takes_of_a_branch_reroll_starts_a_new_step(
        project, make_service, script: FakeScript) -> None:
    service = make_service()
    script.release.set()
    turns = _chain(project, service, ["a", "b [block]", "c"])
    before = _turns(project, turns)
    script.release.clear()
    script.started.clear()
    jobs = service.reroll_branch(turns[0])
    assert service.wait_jobs(jobs[:1], 30)  # a's take landed; b's job waits for the release
    assert script.started.wait(30)
    assert project.document.history.undo_label == "Re-roll branch (1 of 3 turns)"
    project.apply(SetBookmark(turns[2], True))
    script.release.set()
    assert service.wait_jobs(jobs, 30)
    after = _turns(project, turns)

    assert project.document.history.undo_label == "Re-roll branch (2 of 3 turns)"  # b and c, not a
    project.undo()
    assert _turns(project, turns) == {turns[0]: after[turns[0]], **{n: before[n] for n in turns[1:]}}
    assert project.tree.node(turns[2]).bookmarked
    assert project.document.history.undo_label == "Bookmark"
    project.undo()
    assert not project.tree.node(turns[2]).bookmarked
    assert project.document.history.undo_label == "Re-roll branch (1 of 3 turns)"
    project.undo()
    assert _turns(project, turns) == before == _stored(project, turns)
    for _ in range(3):
        project.redo()
    assert _turns(project, turns) == after == _stored(project, turns)
    assert project.tree.node(turns[2]).bookmarked


def test_a_take_of_another_job_between_keeps_the_steps_apart(project, make_service, script: FakeScript) -> None:
    """A take of another job that lands between two takes of a branch re-roll is its own step,
    and the branch's takes on either side of it are not merged across it."""
    service = make_service()
    script.release.set()
    turns = _chain(project, service, ["a", "b [block]", "c"])
    other, _job = service.generate(project.tree.root_id, "other")
    assert service.wait_idle(30)
    before = _turns(project, [*turns, other])
    script.release.clear()
    script.started.clear()
    jobs = service.reroll_branch(turns[0])
    assert script.started.wait(30)  # a's take landed, b's job runs and waits for the release
    extra = service.reroll(other, priority=5)  # runs before c's job, once b's ends
    script.release.set()
    assert service.wait_jobs([*jobs, extra], 30)
    assert service.job(extra).finished_at <= service.job(jobs[2]).started_at

    history = project.document.history
    assert history.undo_label == "Re-roll branch (1 of 3 turns)"
    project.undo()
    assert _turns(project, turns)[turns[2]] == before[turns[2]]
    assert _turns(project, turns)[turns[1]] != before[turns[1]]
    assert history.undo_label == "Re-roll"
    project.undo()
    assert _turns(project, [other]) == {other: before[other]}
    assert history.undo_label == "Re-roll branch (2 of 3 turns)"
    project.undo()
    assert _turns(project, [*turns, other]) == before


def test_several_takes_of_one_turn_queued_at_once_undo_together(project, make_service) -> None:
    service = make_service()
    (turn,) = _chain(project, service, ["a"])
    before = _turns(project, [turn])
    jobs = service.reroll_many(turn, 3)
    assert len(jobs) == 3 and len({service.job(j).seed for j in jobs}) == 3
    assert service.wait_jobs(jobs, 30)
    after = _turns(project, [turn])
    assert len(after[turn][1]) == 4
    assert project.document.history.undo_label == "Re-roll (3 takes)"
    project.undo()
    assert _turns(project, [turn]) == before == _stored(project, [turn])
    project.redo()
    assert _turns(project, [turn]) == after == _stored(project, [turn])


def test_two_reroll_actions_stay_two_steps(project, make_service) -> None:
    """Two re-rolls asked for one right after the other are two actions: two steps."""
    service = make_service()
    (turn,) = _chain(project, service, ["a"])
    first = service.reroll(turn)
    second = service.reroll(turn)
    assert service.job(first).created_at != service.job(second).created_at
    assert service.wait_jobs([first, second], 30)
    assert project.document.history.undo_label == "Re-roll"
    project.undo()
    assert project.document.history.undo_label == "Re-roll"
    project.undo()
    assert len(project.tree.takes_of(turn)) == 1


def test_a_branch_rerolled_before_a_restart_is_still_one_step(project, make_service) -> None:
    """The jobs keep their re-roll together in the project file: queued, the studio closed and
    opened again, their takes still land as one step."""
    service = make_service()
    turns = _chain(project, service, ["a", "b", "c"])
    service.pause()
    jobs = service.reroll_branch(turns[0])
    assert service.stop(timeout=10)
    folder = Path(project.path)
    project.close()
    reopened = Project.open(folder)
    before = _turns(reopened, turns)
    again = make_service(reopened)
    try:
        assert again.wait_jobs(jobs, 30)
        assert all(again.job(j).status is JobStatus.DONE for j in jobs)
        assert reopened.document.history.undo_label == "Re-roll branch (3 turns)"
        reopened.undo()
        assert _turns(reopened, turns) == before == _stored(reopened, turns)
        assert reopened.document.history.undo_label is None
    finally:
        again.stop(cancel_running=True, timeout=10)
        reopened.close()
