"""A long branch in the player: it held every decoded clip of the timeline (a 300-turn story at
720x480 ran to some 7 GB just by selecting its last turn). It now holds the frames of only a few
clips around the playback position, and the timeline still has every clip: playing through
shows each frame in order, and a clip released is decoded again when the position comes back."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.ui.media_cache import ClipCache
from studio.ui.player import HELD_CLIPS, Player

from .solid_clips import solid_clips

CLIPS = 40
FRAMES = 3
CAPACITY = 24  # the shared cache's own size: it drops the first clips while the last ones load


def _branch(tmp_path: Path) -> list[str]:
    return solid_clips(tmp_path, CLIPS, frames=FRAMES, height=24, width=32, fps=24.0, shade_step=6,
                       name="turn{index:02d}.mp4")


def test_a_long_branch_holds_few_clips_and_plays_every_frame(qtbot: QtBot, tmp_path: Path) -> None:
    paths = _branch(tmp_path)
    player = Player(ClipCache(capacity=CAPACITY))
    qtbot.addWidget(player)
    player.show()
    most_held = 0

    def watch(_: int) -> None:
        nonlocal most_held
        most_held = max(most_held, len(player.held_paths))

    frames: list[int] = []
    segments: list[int] = []
    player.frame_changed.connect(watch)
    player.frame_changed.connect(frames.append)
    player.segment_changed.connect(watch)
    player.segment_changed.connect(segments.append)
    player.clips.ready.connect(watch)

    player.set_clips(paths)
    player.cue_segment(CLIPS - 1)  # the last turn selected (as the episode panel does)
    qtbot.waitUntil(lambda: player.ready, timeout=30_000)
    assert player.frame_count == CLIPS * FRAMES, "the timeline has every clip"
    qtbot.waitUntil(lambda: player.view.image is not None, timeout=10_000)
    assert player.frame == (CLIPS - 1) * FRAMES and segments[-1] == CLIPS - 1
    assert most_held <= HELD_CLIPS, f"the player held {most_held} clips while the branch loaded"

    player.loop_button.click()  # loop off: the playback stops at the end
    frames.clear()
    segments.clear()
    player.seek(0)
    qtbot.waitUntil(lambda: player.view.image is not None, timeout=10_000)
    player.play()
    qtbot.waitUntil(lambda: not player.playing, timeout=60_000)
    played = [f for i, f in enumerate(frames) if i == 0 or frames[i - 1] != f]
    assert played == list(range(CLIPS * FRAMES)), "a frame was skipped or shown out of order"
    assert segments == list(range(CLIPS))
    assert most_held <= HELD_CLIPS, f"the player held {most_held} clips while playing"
    assert len(player.held_paths) <= HELD_CLIPS and paths[0] not in player.held_paths

    player.seek(FRAMES + 1)  # back to the second clip, released long since
    qtbot.waitUntil(lambda: player.view.image is not None, timeout=10_000)
    assert player.frame == FRAMES + 1 and paths[1] in player.held_paths
    image = player.view.image
    assert image is not None and abs(image.pixelColor(16, 12).red() - 6) <= 4, "the second clip's frame shows again"
    player.step(1)
    assert player.frame == FRAMES + 2 and player.view.image is not None
    assert most_held <= HELD_CLIPS
