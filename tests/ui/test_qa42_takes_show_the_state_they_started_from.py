"""Each take keeps the state its turn started from when it was made (schema 6); the window
now shows it where takes are listed (the inspector's tiles) and compared (the Compare window),
and says in view when a take started from another state than the turn's start now (the start
or the turn above was changed since)."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import SetStartState
from studio.core.state import CharacterState

LINE = "Character: Qiqi; Motion: run; Background: day town."


def test_tiles_and_compare_say_where_each_take_started(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    ws, project, service = window.workspace, window.session.project, window.session.service
    turn, job = service.generate(project.tree.root_id, LINE, settings=window.session.job_settings())
    assert service.wait_jobs([job], 60)
    [again] = service.reroll_many(turn, 1)
    assert service.wait_jobs([again], 60) and service.wait_idle(60)
    window.session.settle()
    assert all(t.start_state == CharacterState(50, 50, 50) for t in project.tree.takes_of(turn))

    ws.select(turn, center=False)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=5_000)
    tile = ws.inspector.takes.tiles[0]
    assert "Started from Qiqi's stamina 50 · social 50 · fun 50." in tile.state_label.toolTip()
    assert "The same start as this turn has now." in tile.state_label.toolTip()
    assert tile.start_label.isHidden(), "nothing to warn of while the start is the same"
    compare = ws.compare_takes()
    assert compare is not None
    column = compare.columns[0]
    assert "started from Qiqi's stamina 50 · social 50 · fun 50" in column.facts.text()
    assert not column.started_elsewhere and column.start_note.isHidden()

    ws.apply(SetStartState("", CharacterState(stamina=70, social=40, entertainment=55)))
    qtbot.waitUntil(lambda: project.tree.state_before(turn) == CharacterState(70, 40, 55), timeout=5_000)
    window.session.settle()
    qtbot.waitUntil(lambda: not ws.inspector.takes.tiles[0].start_label.isHidden(), timeout=5_000)
    tile = ws.inspector.takes.tiles[0]
    assert tile.start_label.text() == "Started from another state than this turn's start now"
    tip = tile.start_label.toolTip()
    assert "Started from Qiqi's stamina 50 · social 50 · fun 50." in tip
    assert "The turn starts from stamina 70 · social 40 · fun 55 now" in tip and "Re-roll (R)" in tip

    compare = ws.compare_takes()  # brought to the front, following the turn as it is now
    column = compare.columns[0]
    assert column.started_elsewhere
    assert column.start_note.text() == "⚠ started from Qiqi's stamina 50 · social 50 · fun 50"
    assert not column.start_note.isHidden() and "started from" not in column.facts.text()
    assert "stamina 70 · social 40 · fun 55 now" in column.start_note.toolTip()
    compare.close()
