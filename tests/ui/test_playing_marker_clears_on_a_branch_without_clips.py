"""Selecting a branch without a clip to play (a fresh fork, say) clears the filmstrip's and
the state chart's "playing" marks: the player says "no clip", and no turn is marked as the
one it shows (the mark stayed on the old branch's turn number, now a turn without a clip)."""

from __future__ import annotations

from pathlib import Path

from .conftest import generate_first_branch


def test_the_playing_mark_clears_when_the_branch_has_no_clip(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    generate_first_branch(window, qtbot)
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    episode = ws.episode
    ws.select(first, center=False)
    qtbot.waitUntil(lambda: episode.player.ready and episode.player.frame_count > 0, timeout=10_000)
    assert episode.strip.playing == 1 and episode.chart.playing == 1  # the player shows turn 1's clip

    window.actions_.fork.trigger()  # an alternative of turn 1, no take yet, selected
    window.session.settle()
    qtbot.waitUntil(lambda: ws.current_id not in tree.nodes and not episode.player.paths, timeout=5_000)
    assert episode.player.view.message == "no clip"
    assert episode.strip.playing == -1 and episode.chart.playing == -1

    ws.select(first, center=False)  # back on a branch with clips: its shown turn is marked again
    qtbot.waitUntil(lambda: episode.strip.playing == 1, timeout=5_000)
    assert episode.chart.playing == 1
