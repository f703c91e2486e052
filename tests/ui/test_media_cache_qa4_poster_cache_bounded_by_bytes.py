"""The poster cache is bounded by what its posters weigh, as the clip cache is, not by a count:
it held 600 posters whatever their size. It keeps the posters used most recently within its
byte bound, always keeps the poster just loaded (its card shows it next), and a card whose
poster it dropped gets it again."""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from pytestqt.qtbot import QtBot

from studio.ui.media_cache import POSTER_CACHE_BYTES, POSTER_SIZE, PosterCache, poster_bytes

from .test_media_cache_qa3_clip_cache_bounded_by_bytes import load_into

WIDE = (1280, 720)  # a full-size clip's poster: scaled to 360x203 at load
WIDE_BYTES = 360 * 203 * 4  # 32-bit pixels
LARGEST_BYTES = POSTER_SIZE.width() * POSTER_SIZE.height() * 4


def _posters(folder: Path, count: int, size: tuple[int, int] = WIDE) -> list[str]:
    paths = []
    for index in range(count):
        path = folder / f"poster{index:02d}.png"
        Image.new("RGB", size, (20 * index, 40, 60)).save(path)
        paths.append(str(path))
    return paths


def test_the_poster_cache_keeps_the_posters_used_last_within_its_bytes(qtbot: QtBot, tmp_path: Path) -> None:
    paths = _posters(tmp_path, 6)
    cache = PosterCache(max_bytes=3 * WIDE_BYTES + WIDE_BYTES // 2)  # room for three posters, not four
    for path in paths[:3]:
        load_into(qtbot, cache, path)
    assert poster_bytes(cache.peek(paths[0])) == WIDE_BYTES, "a poster weighs its scaled 32-bit pixels"
    assert cache.held_bytes == 3 * WIDE_BYTES

    assert cache.get(paths[0]) is not None  # used again: now the most recent
    load_into(qtbot, cache, paths[3])
    assert [path in cache for path in paths[:4]] == [True, False, True, True], "the least recently used goes"
    for path in paths[4:]:
        load_into(qtbot, cache, path)
        assert cache.held_bytes <= cache.max_bytes
    assert [path in cache for path in paths] == [False, False, False, True, True, True]

    load_into(qtbot, cache, paths[1])  # a card asks again for a poster that was dropped: it comes back
    assert cache.get(paths[1]) is not None and len(cache) == 3


def test_small_posters_are_kept_by_weight_not_by_count(qtbot: QtBot, tmp_path: Path) -> None:
    small = _posters(tmp_path, 8, size=(32, 18))
    cache = PosterCache(max_bytes=WIDE_BYTES)  # room for one full-size poster: eight small ones fit
    for path in small:
        load_into(qtbot, cache, path)
    assert all(path in cache for path in small)
    big_folder = tmp_path / "big"
    big_folder.mkdir()
    big, = _posters(big_folder, 1, size=(1920, 1080))
    load_into(qtbot, cache, big)  # fills the whole bound: the poster just loaded stays, alone
    assert big in cache and len(cache) == 1 and cache.held_bytes == WIDE_BYTES


def test_the_default_bound_holds_a_canvas_of_posters_and_less_than_the_old_count() -> None:
    cache = PosterCache()
    assert cache.max_bytes == POSTER_CACHE_BYTES
    assert POSTER_CACHE_BYTES // LARGEST_BYTES >= 300, "a canvas full of cards keeps its posters"
    assert POSTER_CACHE_BYTES < 600 * LARGEST_BYTES, "less than the 600 posters it held"
