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
    ws.choose_take(turns[0], second)
    window.session.settle()
    qtbot.waitUntil(lambda: project.tree.node(turns[0]).selected_take_id == second)
    assert said[-1] == "Take 2 chosen; 2 later turns are stale."

    ws.choose_take(turns[0], first)
    window.session.settle()
    qtbot.waitUntil(lambda: project.tree.node(turns[0]).selected_take_id == first)
    assert not any(project.tree.selected_take(turn).stale for turn in turns)
    assert said[-1] == "Take 1 chosen; 2 later turns are current again."
