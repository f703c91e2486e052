"""Choosing a take that makes later turns current again says so in the status bar ("Take 1
chosen; 2 later turns are current again"): it said nothing when no turn became stale."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import fake_engine_window


def test_choosing_the_first_take_back_says_the_later_turns_are_current_again(
        make_window, sample_project: Path, settings, registry, qtbot) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws, project, service = window.workspace, window.session.project, window.session.service
    script.release.set()
    job_settings = window.session.job_settings()
    turns: list[str] = []
    parent = project.tree.root_id
    for text in ("Qiqi runs", "Qiqi waves", "Qiqi sits"):
        parent, job = service.generate(parent, text, settings=job_settings)
        assert service.wait_jobs([job], 60)
        turns.append(parent)
    [other] = service.reroll_many(turns[0], 1)
    assert service.wait_jobs([other], 60) and service.wait_idle(60)
    window.session.settle()
    first, second = (take.id for take in project.tree.takes_of(turns[0]))
    said: list[str] = []
    ws.message.connect(said.append)

    ws.select(turns[0], center=False)
    asked: list[int] = []
    window.ask_stale = lambda count: asked.append(count) or None  # type: ignore[method-assign]
    ws.choose_take(turns[0], second)  # asked about the 2 turns it makes stale, and cancelled
    window.session.settle()
    assert asked == [2] and project.tree.node(turns[0]).selected_take_id == first, "cancel keeps the take"
    window.ask_stale = lambda count: "use"  # type: ignore[method-assign]
    ws.choose_take(turns[0], second)
    window.session.settle()
    qtbot.waitUntil(lambda: project.tree.node(turns[0]).selected_take_id == second)
    assert said[-1] == "Take 2 chosen; 2 later turns are stale."

    ws.choose_take(turns[0], first)
    window.session.settle()
    qtbot.waitUntil(lambda: project.tree.node(turns[0]).selected_take_id == first)
    assert not any(project.tree.selected_take(turn).stale for turn in turns)
    assert said[-1] == "Take 1 chosen; 2 later turns are current again."


def test_choosing_the_first_take_back_after_a_reroll_brings_back_the_takes_made_from_it(
        make_window, sample_project: Path, settings, registry, qtbot) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws, project, service = window.workspace, window.session.project, window.session.service
    script.release.set()
    job_settings = window.session.job_settings()
    turns: list[str] = []
    parent = project.tree.root_id
    for text in ("Qiqi runs", "Qiqi waves", "Qiqi sits"):
        parent, job = service.generate(parent, text, settings=job_settings)
        assert service.wait_jobs([job], 60)
        turns.append(parent)
    [other] = service.reroll_many(turns[0], 1)
    assert service.wait_jobs([other], 60) and service.wait_idle(60)
    window.session.settle()
    first, second = (take.id for take in project.tree.takes_of(turns[0]))
    old_below = [project.tree.node(turn).selected_take_id for turn in turns[1:]]

    window.ask_stale = lambda count: "reroll"  # type: ignore[method-assign]
    ws.select(turns[0], center=False)
    ws.choose_take(turns[0], second)
    qtbot.waitUntil(lambda: all(len(project.tree.takes_of(turn)) == 2 for turn in turns[1:]), timeout=60_000)
    assert service.wait_idle(60)
    window.session.settle()
    assert [project.tree.node(turn).selected_take_id for turn in turns[1:]] != old_below
    said: list[str] = []
    ws.message.connect(said.append)

    ws.choose_take(turns[0], first)
    window.session.settle()
    qtbot.waitUntil(lambda: project.tree.node(turns[0]).selected_take_id == first)
    assert [project.tree.node(turn).selected_take_id for turn in turns[1:]] == old_below
    assert not any(project.tree.selected_take(turn).stale for turn in turns)
    assert said[-1] == "Take 1 chosen; 2 turns after it use their takes made from it again.", said
