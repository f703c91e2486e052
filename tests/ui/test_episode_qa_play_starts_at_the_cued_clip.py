"""Selecting a late turn of a long branch and pressing Space at once, before its clip (and the
ones before it) had been decoded: the playback started from the branch's first turn, since Play
dropped the turn cued for the preview. It now waits for that clip and starts there."""

from __future__ import annotations

from pathlib import Path

from studio.ui.media_cache import ClipCache
from studio.ui.player import Player

from .solid_clips import solid_clips

CLIPS = 5
FRAMES = 4


def test_play_right_after_a_cue_starts_at_the_cued_clip(qtbot, tmp_path: Path) -> None:
    paths = solid_clips(tmp_path, CLIPS, frames=FRAMES, shade_step=40)
    player = Player(ClipCache())
    qtbot.addWidget(player)
    player.show()
    player.set_clips(paths)  # nothing decoded yet
    player.cue_segment(CLIPS - 1)  # the preview of the branch's last turn (as the episode panel does)
    player.play()  # Space, before the clip has landed
    qtbot.waitUntil(lambda: player.ready, timeout=10_000)
    qtbot.waitUntil(lambda: player.frame > 0, timeout=5_000)
    assert player.frame >= (CLIPS - 1) * FRAMES, "the playback started before the cued turn"
    assert player.playing
    player.pause()
