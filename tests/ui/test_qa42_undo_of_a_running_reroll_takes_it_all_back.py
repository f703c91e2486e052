"""Undo pressed while a branch re-roll is still running takes back the whole re-roll: the jobs
still waiting or running are cancelled first, so that no take lands (and is chosen) made from
a take the undo removed, and the status bar says so. It took back only the takes that had
arrived; the rest kept running and became the chosen takes, out of date."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import fake_engine_window

TIMEOUT_MS = 60_000


def test_undo_mid_reroll_cancels_the_rest_and_keeps_the_old_takes(make_window, sample_project: Path, settings,
                                                                  registry, qtbot) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws, project, service = window.workspace, window.session.project, window.session.service
    script.release.set()
    job_settings = window.session.job_settings()
    turns: list[str] = []
    parent = project.tree.root_id
    for text in ("Qiqi runs", "Qiqi waves", "Qiqi sits [block]", "Qiqi sleeps", "Qiqi wakes"):
        parent, job = service.generate(parent, text, settings=job_settings)
        assert service.wait_jobs([job], 60)
        turns.append(parent)
    assert service.wait_idle(60)
    window.session.settle()
    before = {turn: project.tree.node(turn).selected_take_id for turn in turns}
    takes_before = set(project.tree.takes)

    script.release.clear()
    script.started.clear()
    ws.select(turns[0], center=False)
    window.actions_.reroll_branch.trigger()
    qtbot.waitUntil(script.started.is_set, timeout=TIMEOUT_MS)  # two takes landed, the third is running
    window.session.settle()
    assert len(set(project.tree.takes) - takes_before) == 2

    said: list[str] = []
    ws.message.connect(said.append)
    window.actions_.undo.trigger()
    window.session.settle()
    script.release.set()
    assert service.wait_idle(60)
    window.session.settle()

    tree = project.tree
    assert set(tree.takes) == takes_before, "no take of the re-roll is left, nor lands after the undo"
    assert {turn: tree.node(turn).selected_take_id for turn in turns} == before
    assert not any(tree.selected_take(turn).stale for turn in turns)
    assert not [job for job in service.jobs() if not job.finished], "no job of the re-roll still waits"
    assert said[-1] == "Undo Re-roll branch (2 of 5 turns); the 3 turns still to re-roll were cancelled.", said
    assert window.status_text() == said[-1]
