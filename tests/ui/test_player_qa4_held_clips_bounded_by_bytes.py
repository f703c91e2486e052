"""The player held the frames of eight clips around the playback position whatever they weighed
(eight 1280x720 clips of 17 frames are some 500 MB, on top of the shared cache). It now holds
them within the shared clip cache's byte bound, most needed first, always keeping the clip that
plays; playing through still shows every frame in order, and the cut to the next clip does not
wait on "decoding…" when it is decoded ahead."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.ui.media_cache import ClipCache
from studio.ui.player import HELD_CLIPS, Player

from .solid_clips import solid_clips

CLIPS, FRAMES, HEIGHT, WIDTH = 10, 3, 48, 64
CLIP_BYTES = FRAMES * HEIGHT * WIDTH * 4  # 32-bit frames


def _branch(folder: Path, frames: int = FRAMES) -> list[str]:
    return solid_clips(folder, CLIPS, frames=frames, height=HEIGHT, width=WIDTH, fps=24.0,
                       name="turn{index:02d}.mp4")


def test_the_player_holds_clips_within_the_shared_caches_bytes(qtbot: QtBot, tmp_path: Path) -> None:
    paths = _branch(tmp_path)
    cache = ClipCache(max_bytes=3 * CLIP_BYTES + CLIP_BYTES // 2)  # room for three clips of the eight
    player = Player(cache)
    qtbot.addWidget(player)
    player.show()
    assert player.max_bytes == cache.max_bytes, "the player shares the cache's bound"
    heaviest = 0
    playing_held = True
    frames: list[int] = []

    def watch(_: object = None) -> None:
        nonlocal heaviest, playing_held
        heaviest = max(heaviest, player.held_bytes)
        if player.view.image is not None:  # a frame shows: its clip is held
            index = player.frame // FRAMES  # every clip has FRAMES frames
            playing_held = playing_held and paths[index] in player.held_paths

    player.frame_changed.connect(watch)
    player.frame_changed.connect(frames.append)
    player.segment_changed.connect(watch)
    cache.ready.connect(watch)

    player.set_clips(paths)
    qtbot.waitUntil(lambda: player.ready, timeout=30_000)
    assert player.frame_count == CLIPS * FRAMES
    player.loop_button.click()  # loop off: the playback stops at the end
    frames.clear()
    player.seek(0)
    qtbot.waitUntil(lambda: player.view.image is not None, timeout=10_000)
    player.play()
    qtbot.waitUntil(lambda: not player.playing, timeout=60_000)
    played = [f for i, f in enumerate(frames) if i == 0 or frames[i - 1] != f]
    assert played == list(range(CLIPS * FRAMES)), "a frame was skipped or shown out of order"
    assert heaviest <= player.max_bytes, f"the player held {heaviest} bytes, over {player.max_bytes}"
    assert playing_held, "the clip shown was not held"
    assert 1 <= len(player.held_paths) <= 3 and paths[-1] in player.held_paths


def test_a_roomy_bound_still_holds_the_clips_ahead(qtbot: QtBot, tmp_path: Path) -> None:
    paths = _branch(tmp_path)
    player = Player(ClipCache(), max_bytes=100 * CLIP_BYTES)
    qtbot.addWidget(player)
    player.set_clips(paths)
    qtbot.waitUntil(lambda: player.ready, timeout=30_000)
    player.seek(0)
    qtbot.waitUntil(lambda: len(player.held_paths) == HELD_CLIPS, timeout=10_000)
    assert player.held_paths[:3] == paths[:3]


def test_a_clip_heavier_than_the_bound_plays(qtbot: QtBot, tmp_path: Path) -> None:
    path, = _branch(tmp_path)[:1]
    cache = ClipCache(max_bytes=CLIP_BYTES // 2)
    player = Player(cache)
    qtbot.addWidget(player)
    player.set_clips([path])
    qtbot.waitUntil(lambda: player.view.image is not None, timeout=10_000)
    player.step(1)
    assert player.frame == 1 and player.view.image is not None and player.held_paths == [path]
