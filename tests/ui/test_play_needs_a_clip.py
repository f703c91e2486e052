"""Play (Space, and the toolbar's Play) is off while the shown branch has no clip to play (it
was on and did nothing), with a tooltip that says why; it comes on once a turn of the branch
is generated."""

from __future__ import annotations

from pathlib import Path

from .conftest import generate_first_branch


def test_play_is_off_until_the_branch_has_a_clip(make_window, sample_project: Path, qtbot, tmp_path: Path) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "empty.kamishibai")  # a new project: only its start
    play = window.actions_.play
    assert window.workspace is not None
    assert not play.isEnabled()
    assert "Nothing to play" in play.toolTip()

    assert window.open_project(sample_project)  # turns, none generated yet
    assert not play.isEnabled()
    button = window.toolbar.widgetForAction(play)
    assert button is not None and not button.isEnabled()

    generate_first_branch(window, qtbot)
    ws = window.workspace
    qtbot.waitUntil(lambda: bool(ws.episode.player.paths), timeout=10_000)
    qtbot.waitUntil(play.isEnabled, timeout=5000)
    assert play.toolTip() == "Play branch"
    play.trigger()
    assert ws.episode.player.playing
    play.trigger()
    assert not ws.episode.player.playing
