"""A branch longer than the filmstrip keeps the turn that matters in its sight: as it plays
(or is scrubbed) past the turns in view, the strip scrolls along (it stayed on the selected
turn, the outline marking the turn playing out of sight a few turns in); narrowed (the queue
comes out beside it when a job is queued), it keeps the selected turn in sight (it was left
cut at the edge, or hidden past it)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QSplitter

TURNS = 30


def _thumb_in_view(episode, index: int) -> bool:  # type: ignore[no-untyped-def]
    rect = episode.strip.thumb_rect(index)
    left = episode.strip.mapTo(episode.scroll_area.viewport(), rect.topLeft().toPoint()).x()
    return left >= 0 and left + rect.width() <= episode.scroll_area.viewport().width()


def _window_on_a_long_branch(make_window, tmp_path: Path, qtbot):  # type: ignore[no-untyped-def]
    """A window on a branch of :data:`TURNS` generated turns: (window, its last turn's id)."""
    from studio.composition import create_project
    from studio.core.commands import AddTurn

    project = create_project(tmp_path / "long.kamishibai", name="Long")
    parent = project.tree.root_id
    for index in range(TURNS):
        node_id = f"turn{index:02d}"
        project.apply(AddTurn(parent, f"Character: Qiqi; Motion: walk; Background: day town. Step {index}", node_id))
        parent = node_id
    folder = project.path
    project.close()
    window = make_window(folder)
    window.resize(1280, 720)
    window.workspace.select(parent, center=False)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=120_000)
    return window, parent


def test_the_strip_scrolls_to_the_turn_playing(make_window, tmp_path: Path, qtbot) -> None:
    window, _last = _window_on_a_long_branch(make_window, tmp_path, qtbot)
    ws = window.workspace
    first = "turn00"
    ws.select(first, center=False)
    episode = ws.episode
    player = episode.player
    qtbot.waitUntil(lambda: len(player.paths) == TURNS and player.ready, timeout=30_000)
    qtbot.waitUntil(lambda: _thumb_in_view(episode, 1))
    assert not _thumb_in_view(episode, TURNS), "the strip is too wide for the test: every turn is in sight"

    player.seek(player.frame_count - 1)  # scrubbed to the branch's end
    assert episode.strip.playing == TURNS
    qtbot.waitUntil(lambda: _thumb_in_view(episode, TURNS), timeout=3000)  # the last turn, shown, in sight

    middle = TURNS // 2
    player.cue_segment(middle - 1)  # turn 15's clip; played from there it shows turn 15, then 16
    player.play()
    qtbot.waitUntil(lambda: episode.strip.playing == middle + 1, timeout=20_000)
    player.pause()
    qtbot.waitUntil(lambda: _thumb_in_view(episode, middle + 1), timeout=3000)  # the turn playing in sight
    assert ws.current_id == first, "playing selects no other turn"


def test_a_narrowed_strip_keeps_the_selected_turn_in_sight(make_window, tmp_path: Path, qtbot) -> None:
    window, last = _window_on_a_long_branch(make_window, tmp_path, qtbot)
    window.resize(1600, 900)  # room to narrow the strip
    episode = window.workspace.episode
    window.workspace.select(last, center=False)
    qtbot.waitUntil(lambda: episode.strip.current == TURNS)
    qtbot.waitUntil(lambda: episode.player.ready, timeout=30_000)  # no clip landing later scrolls the strip
    qtbot.waitUntil(lambda: _thumb_in_view(episode, TURNS))
    width = episode.scroll_area.viewport().width()
    splitter = episode.findChild(QSplitter)  # the player's side made wider, as by dragging the handle
    player_side, strip_side = splitter.sizes()
    narrower = max(strip_side // 2, splitter.widget(1).minimumSizeHint().width())
    splitter.setSizes([player_side + strip_side - narrower, narrower])
    qtbot.waitUntil(lambda: episode.scroll_area.viewport().width() < width - 20)  # the last turn's width at least
    assert not episode.player.playing
    # the selected turn comes back in sight (it stayed out of it: cut at the strip's right edge)
    qtbot.waitUntil(lambda: _thumb_in_view(episode, TURNS), timeout=3000)


