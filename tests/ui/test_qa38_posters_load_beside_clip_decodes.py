"""A card's poster loads while clips are being decoded: posters have a pool of their own.

On the application's shared pool (one thread per core) the posters of a project just opened
waited behind the episode preview's clip decodes, and the cards stayed grey for seconds."""

from __future__ import annotations

import threading
from pathlib import Path

from PIL import Image
from PySide6.QtCore import QRunnable, QThreadPool
from PySide6.QtGui import QImage

from studio.ui.media_cache import POSTER_SIZE, ClipCache, PosterCache


class _Busy(QRunnable):
    """Holds a shared-pool thread until ``release`` is set, as a long clip decode does."""

    def __init__(self, started: threading.Semaphore, release: threading.Event) -> None:
        super().__init__()
        self.started = started
        self.release = release

    def run(self) -> None:
        self.started.release()
        self.release.wait(20)


def _poster(path: Path) -> Path:
    Image.new("RGB", (640, 384), (200, 40, 90)).save(path)
    return path


def test_poster_lands_while_every_shared_thread_decodes_a_clip(qtbot, tmp_path: Path) -> None:
    posters = PosterCache()
    clips = ClipCache()
    shared = QThreadPool.globalInstance()
    assert clips.pool is shared  # clips stay on the shared pool
    started, release = threading.Semaphore(0), threading.Event()
    busy = shared.maxThreadCount()
    try:
        for _ in range(busy):
            shared.start(_Busy(started, release))
        for _ in range(busy):
            assert started.acquire(timeout=10)  # every shared thread is taken
        path = str(_poster(tmp_path / "poster.png"))
        assert posters.get(path) is None  # scheduled
        with qtbot.waitSignal(posters.ready, timeout=5000) as landed:
            pass
        assert landed.args == [path]
        assert not release.is_set()  # it came while the decodes still held the shared pool
        image = posters.get(path)
        assert isinstance(image, QImage)
        assert image.width() <= POSTER_SIZE.width() and image.height() <= POSTER_SIZE.height()
        assert image.pixelColor(image.width() // 2, image.height() // 2).red() == 200
    finally:
        release.set()
        shared.waitForDone(10000)
