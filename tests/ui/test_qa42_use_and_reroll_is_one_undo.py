""""Use and re-roll" in the window is one step: after the later turns are re-rolled from the
take chosen, one Undo (as the Edit menu names it) gives the turn its former take back and takes
the re-rolled takes away; the author is not left halfway, with the new take and stale turns."""

from __future__ import annotations

from pathlib import Path

TIMEOUT_MS = 60_000
LINE = "Character: Qiqi; Motion: {}; Background: day town."


def test_one_undo_takes_back_the_choice_and_the_reroll(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    ws, project, service = window.workspace, window.session.project, window.session.service
    settings = window.session.job_settings()
    top, job = service.generate(project.tree.root_id, LINE.format("run"), settings=settings)
    below, below_job = service.generate(top, LINE.format("wave"), settings=settings)
    assert service.wait_jobs([job, below_job], 60)
    [other] = service.reroll_many(top, 1)
    assert service.wait_jobs([other], 60) and service.wait_idle(60)
    window.session.settle()
    former = project.tree.node(top).selected_take_id
    former_below = project.tree.node(below).selected_take_id
    new = next(t.id for t in project.tree.takes_of(top) if t.id != former)
    number = [t.id for t in project.tree.takes_of(top)].index(new) + 1

    window.ask_stale = lambda count: "reroll"  # type: ignore[method-assign]
    ws.choose_take(top, new)
    qtbot.waitUntil(lambda: len(project.tree.takes_of(below)) == 2, timeout=TIMEOUT_MS)
    assert service.wait_idle(60)
    window.session.settle()
    qtbot.waitUntil(lambda: window.actions_.undo.text()
                    == f"&Undo Use take {number} of turn 1 and re-roll 1 turn", timeout=5000)

    window.actions_.undo.trigger()
    window.session.settle()
    qtbot.waitUntil(lambda: project.tree.node(top).selected_take_id == former, timeout=5000)
    assert [t.id for t in project.tree.takes_of(below)] == [former_below]
    assert project.tree.node(below).selected_take_id == former_below
    assert not project.tree.selected_take(below).stale, "the turn below is as it was: made from the former take"
