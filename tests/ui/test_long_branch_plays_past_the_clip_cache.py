"""A branch with more generated turns than the shared clip cache holds (24 clips; a long
story has 60) plays to its end: the player keeps its own timeline's clips, instead of
asking the cache again for the first ones while the cache drops them for the last ones
(it never became ready, and Play stopped on "decoding…" a few turns in)."""

from __future__ import annotations

from pathlib import Path

from studio.ui.media_cache import ClipCache
from studio.ui.player import Player

from .solid_clips import solid_clips

CLIPS = 7
CAPACITY = 3


def test_a_branch_longer_than_the_cache_plays_every_clip(qtbot, tmp_path: Path) -> None:
    paths = solid_clips(tmp_path, CLIPS, frames=4, fps=lambda index: 8.0 if index % 2 else 24.0, shade_step=30)
    cache = ClipCache(capacity=CAPACITY)
    player = Player(cache)
    qtbot.addWidget(player)
    player.show()
    shown: list[int] = []
    player.segment_changed.connect(shown.append)

    player.set_clips(paths)
    qtbot.waitUntil(lambda: player.ready, timeout=10_000)
    # the 8 fps clips play at the first clip's 24 fps, as the export resamples them: 12 frames each
    assert player.frame_count == 4 * 4 + 3 * 12
    player.seek(player.frame_count - 1)
    assert shown[-1] == CLIPS - 1, "the last turn's clip shows"
    player.seek(0)
    assert shown[-1] == 0 and player.view.image is not None


def test_a_long_branch_in_the_window_plays_to_its_last_turn(make_window, tmp_path: Path, qtbot) -> None:
    from studio.composition import create_project
    from studio.core.commands import AddTurn

    project = create_project(tmp_path / "long.kamishibai", name="Long")
    parent = project.tree.root_id
    for index in range(30):
        parent = f"turn{index:02d}"
        project.apply(AddTurn(project.tree.root_id if index == 0 else f"turn{index - 1:02d}",
                              f"Character: Qiqi; Motion: walk; Background: day town. Step {index}", parent))
    folder = project.path
    project.close()
    window = make_window(folder)
    ws = window.workspace
    ws.select(parent, center=False)
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=120_000)
    player = ws.episode.player
    qtbot.waitUntil(lambda: len(player.paths) == 30, timeout=10_000)
    qtbot.waitUntil(lambda: player.ready, timeout=20_000)
    player.seek(player.frame_count - 1)
    assert ws.episode.strip.playing == 30, "the filmstrip marks the last turn as the one playing"
