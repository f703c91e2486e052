"""Playing the branch while a take of one of its turns lands (a re-roll that selects its take):
the playback stopped and jumped back to the selected turn's clip. It now plays on from the
frame it was at (the clip it shows is still in the branch)."""

from __future__ import annotations

from pathlib import Path

from .conftest import generate_first_branch


def test_a_take_landing_mid_play_does_not_stop_the_branch(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    leaf = generate_first_branch(window, qtbot)
    branch = [n.id for n in ws.tree.path_to(leaf)]
    player = ws.episode.player
    ws.select(branch[1], center=False)
    qtbot.waitUntil(lambda: player.ready and len(player.paths) == 5, timeout=10_000)
    before = player.paths
    player.play()  # looping (the default): it is still playing when the take lands
    qtbot.waitUntil(lambda: player.frame >= 2, timeout=5_000)
    service = window.session.service
    service.set_reroll_selects(True)
    service.reroll(branch[5], engine="sketch", settings=ws.settings_for_jobs())  # the last turn: not yet shown
    qtbot.waitUntil(lambda: player.paths != before, timeout=20_000)
    assert player.paths[:4] == before[:4] and player.paths[4] != before[4]
    assert player.playing, "the playback stopped when the take landed"
    qtbot.waitUntil(lambda: player.segment_index == 4, timeout=20_000)  # on into the new clip
    assert player.playing
    player.pause()
