"""Choosing another take of a turn with two branches below it and answering "Re-roll" to the
stale turns re-rolls both branches as one action with the choice: one Undo takes back all their
new takes and the choice."""

from __future__ import annotations

from pathlib import Path

TIMEOUT_MS = 60_000
LINE = "Character: Qiqi; Motion: {}; Background: day town."


def test_both_branches_below_a_chosen_take_rerolled_undo_as_one(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    ws, project, service = window.workspace, window.session.project, window.session.service
    settings = window.session.job_settings()
    top, job = service.generate(project.tree.root_id, LINE.format("run"), settings=settings)
    left, left_job = service.generate(top, LINE.format("wave"), settings=settings)
    right, right_job = service.generate(top, LINE.format("jump"), settings=settings)
    below, below_job = service.generate(left, LINE.format("dance"), settings=settings)
    assert service.wait_jobs([job, left_job, right_job, below_job], 60)
    [other] = service.reroll_many(top, 1)
    assert service.wait_jobs([other], 60) and service.wait_idle(60)
    window.session.settle()
    before = {turn: project.tree.takes_of(turn) for turn in (left, right, below)}
    chosen = project.tree.node(top).selected_take_id
    new = next(t.id for t in project.tree.takes_of(top) if t.id != chosen)

    asked: list[int] = []
    window.ask_stale = lambda count: asked.append(count) or "reroll"  # type: ignore[method-assign]
    ws.choose_take(top, new)
    window.session.settle()
    assert asked == [3]
    qtbot.waitUntil(lambda: all(len(project.tree.takes_of(t)) == 2 for t in before), timeout=TIMEOUT_MS)
    assert service.wait_idle(60)
    window.session.settle()
    assert window.actions_.undo.text() == "&Undo Use take 2 of turn 1 and re-roll 3 turns"

    window.actions_.undo.trigger()
    window.session.settle()
    ids = {t: [take.id for take in takes] for t, takes in before.items()}
    qtbot.waitUntil(lambda: {t: [take.id for take in project.tree.takes_of(t)] for t in before} == ids)
    assert all(project.tree.node(t).selected_take_id == before[t][0].id for t in before)
    assert project.tree.node(top).selected_take_id == chosen, "the choice is undone with its re-roll"
    assert not any(project.tree.selected_take(t).stale for t in before), "so the turns below are fresh again"
