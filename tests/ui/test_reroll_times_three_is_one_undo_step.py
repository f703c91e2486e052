"""Re-roll ×3 in the window is one action: one Undo takes back its three takes, one Redo
brings them back (the takes land one by one, each in its own job)."""

from __future__ import annotations

from pathlib import Path

TIMEOUT_MS = 60_000


def test_one_undo_takes_back_the_three_takes_of_reroll_times_three(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    ws, project, service = window.workspace, window.session.project, window.session.service
    turn, job = service.generate(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town.",
                                 settings=window.session.job_settings())
    assert service.wait_jobs([job], 60)
    qtbot.waitUntil(lambda: project.tree.selected_take(turn) is not None, timeout=TIMEOUT_MS)
    first = project.tree.selected_take(turn)
    assert first is not None
    ws.select(turn)
    ws.inspector.takes.reroll_many_button.click()  # x 3
    qtbot.waitUntil(lambda: len(project.tree.takes_of(turn)) == 4, timeout=TIMEOUT_MS)
    assert service.wait_idle(60)
    window.session.settle()
    assert window.actions_.undo.text() == "&Undo Re-roll (3 takes)"

    window.actions_.undo.trigger()
    window.session.settle()
    qtbot.waitUntil(lambda: [t.id for t in project.tree.takes_of(turn)] == [first.id])
    assert project.tree.selected_take(turn) == first
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 1)

    window.actions_.redo.trigger()
    window.session.settle()
    qtbot.waitUntil(lambda: len(project.tree.takes_of(turn)) == 4)
