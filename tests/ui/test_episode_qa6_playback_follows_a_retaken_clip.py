"""A take of the turn whose clip is playing re-rolled or chosen (a leaf's re-roll selects its
new take): the branch's timeline lost the clip that played, and the playback stopped, jumping
to the selected turn. It now plays on with that turn's new clip (from its start, once
decoded); while the turn has no clip (its take being made), with the next clip of the branch.
Another branch selected, without the turn, still stops it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pytestqt.qtbot import QtBot

from studio.core.state import CharacterState
from studio.storage.media import write_clip
from studio.ui.episode.episode_panel import EpisodePanel
from studio.ui.media_cache import ClipCache, PosterCache
from studio.ui.node_summary import CardStatus, NodeSummary

FRAMES = 6


def _summary(node: str, clip: str, status: CardStatus = CardStatus.DONE) -> NodeSummary:
    return NodeSummary(node_id=node, title=node, excerpt=node, state=CharacterState(), motion_level=None,
                       status=status, bookmarked=False, poster_path="", clip_path=clip,
                       take_count=1 if clip else 0)


def _clip(folder: Path, name: str, shade: int) -> str:
    write_clip(folder / name, np.full((FRAMES, 32, 48, 3), shade, np.uint8), 8.0)
    return name


def _shade(panel: EpisodePanel) -> int:
    image = panel.player.view.image
    return -1 if image is None else image.pixelColor(2, 2).red()


def test_playback_goes_on_with_the_playing_turns_new_clip(qtbot: QtBot, tmp_path: Path) -> None:
    clips = [_clip(tmp_path, f"t{i}.mp4", 40 * i) for i in range(1, 4)]
    new_take = _clip(tmp_path, "t3-again.mp4", 240)
    branch = ["n0", "n1", "n2", "n3"]
    summaries = [_summary("n0", "", CardStatus.START),
                 *(_summary(node, clip) for node, clip in zip(branch[1:], clips, strict=True))]
    states = [CharacterState()] * len(branch)
    panel = EpisodePanel(PosterCache(), ClipCache(), lambda rel: str(tmp_path / rel) if rel else "")
    qtbot.addWidget(panel)
    panel.show()
    player = panel.player
    panel.set_branch(branch, summaries, states, 3)
    qtbot.waitUntil(lambda: player.ready, timeout=10_000)
    player.play(from_segment=2)  # turn 3's clip plays
    assert player.playing and panel.strip.playing == 3

    running = [*summaries[:3], _summary("n3", "", CardStatus.RUNNING)]
    panel.set_branch(branch, running, states, 3)  # re-rolled: its take is being made
    assert player.playing, "the playback stopped when the playing turn's take was re-rolled"

    panel.set_branch(branch, [*summaries[:3], _summary("n3", new_take)], states, 3)  # it lands
    player.play(from_segment=2)
    summaries[3] = _summary("n3", clips[2])
    panel.set_branch(branch, summaries, states, 3)  # the earlier take chosen again, mid-play
    assert player.playing, "the playback stopped when another take of the playing turn was chosen"
    qtbot.waitUntil(lambda: _shade(panel) in range(110, 130), timeout=10_000)
    assert panel.strip.playing == 3, "it plays on with the turn's clip"

    other = ["n0", "n1", "m2"]  # another branch, without turn n3: the playback stops
    panel.set_branch(other, [*summaries[:2], _summary("m2", clips[1])], states[:3], 2)
    assert not player.playing
