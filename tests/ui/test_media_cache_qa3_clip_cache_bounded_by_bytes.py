"""The shared clip cache is bounded by what its decoded frames weigh, not by a count of clips:
it held 24 clips whatever their size (17 frames at 720x480, 32-bit, are about 23 MB a clip, so
over 500 MB). It keeps the clips used most recently within its byte bound, keeps a clip
heavier than the whole bound (a view is waiting to show it), and a view whose clip it dropped
gets the clip again (decoded anew)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.ui.media_cache import CLIP_CACHE_BYTES, ClipCache, PosterCache, clip_bytes
from studio.ui.player import Player

from .solid_clips import solid_clips

FRAMES, HEIGHT, WIDTH = 4, 48, 64
CLIP_BYTES = FRAMES * HEIGHT * WIDTH * 4  # 32-bit frames
FULL_SIZE_CLIP_BYTES = 17 * 480 * 720 * 4


def _clips(folder: Path, count: int, frames: int = FRAMES) -> list[str]:
    return solid_clips(folder, count, frames=frames, height=HEIGHT, width=WIDTH)


def load_into(qtbot: QtBot, cache: ClipCache | PosterCache, path: str) -> None:
    """Ask ``cache`` for ``path`` and wait until it has loaded it."""
    with qtbot.waitSignal(cache.ready, timeout=10_000, check_params_cb=lambda landed: landed == path):
        assert cache.get(path) is None
    assert path in cache


def test_the_cache_keeps_the_clips_used_last_within_its_bytes(qtbot: QtBot, tmp_path: Path) -> None:
    paths = _clips(tmp_path, 6)
    cache = ClipCache(max_bytes=3 * CLIP_BYTES + CLIP_BYTES // 2)  # room for three clips, not four
    for path in paths[:3]:
        load_into(qtbot, cache, path)
    assert cache.held_bytes == 3 * CLIP_BYTES
    assert clip_bytes(cache.peek(paths[0])) == CLIP_BYTES, "a clip weighs its 32-bit frames"

    assert cache.get(paths[0]) is not None  # used again: now the most recent
    load_into(qtbot, cache, paths[3])
    assert [path in cache for path in paths[:4]] == [True, False, True, True], "the least recently used goes"
    for path in paths[4:]:
        load_into(qtbot, cache, path)
        assert cache.held_bytes <= cache.max_bytes
    assert len(cache) == 3 and cache.held_bytes == 3 * CLIP_BYTES
    assert [path in cache for path in paths] == [False, False, False, True, True, True]


def test_a_clip_heavier_than_the_bound_is_kept_alone(qtbot: QtBot, tmp_path: Path) -> None:
    small, = _clips(tmp_path, 1)
    big_folder = tmp_path / "big"
    big_folder.mkdir()
    big, = _clips(big_folder, 1, frames=12)
    cache = ClipCache(max_bytes=2 * CLIP_BYTES)
    load_into(qtbot, cache, small)
    load_into(qtbot, cache, big)  # three times the bound's room: kept, so its view can show it
    assert big in cache and small not in cache
    assert cache.held_bytes == 3 * CLIP_BYTES
    load_into(qtbot, cache, small)
    assert small in cache and big not in cache and cache.held_bytes == CLIP_BYTES


def test_the_default_bound_is_a_few_full_size_clips() -> None:
    cache = ClipCache()
    assert cache.max_bytes == CLIP_CACHE_BYTES
    assert 4 * FULL_SIZE_CLIP_BYTES <= CLIP_CACHE_BYTES <= 256 * 1024 * 1024, "a laptop can afford it"


def test_a_player_shows_a_clip_the_cache_dropped(qtbot: QtBot, tmp_path: Path) -> None:
    """A branch of six clips on a cache with room for one: every clip plays, and one dropped
    from the cache (and released by the player) shows again when the position comes back."""
    paths = _clips(tmp_path, 6)
    cache = ClipCache(max_bytes=CLIP_BYTES)
    player = Player(cache)
    qtbot.addWidget(player)
    player.show()
    player.set_clips(paths)
    qtbot.waitUntil(lambda: player.ready, timeout=20_000)
    assert player.frame_count == 6 * FRAMES
    assert cache.held_bytes <= CLIP_BYTES
    player.loop_button.click()  # loop off: the window ahead does not wrap to the first clips
    player.seek(player.frame_count - 1)
    qtbot.waitUntil(lambda: player.view.image is not None, timeout=10_000)
    qtbot.waitUntil(lambda: paths[0] not in player.held_paths, timeout=10_000)
    assert paths[0] not in cache, "the first clip was dropped by both"
    player.seek(0)
    qtbot.waitUntil(lambda: player.view.image is not None, timeout=10_000)
    assert player.view.image.pixelColor(1, 1).red() < 10, "the first clip's own frame shows"
