"""Posters and clip frames, decoded off the GUI thread and kept in LRU caches.

Decoding runs on QThreadPool workers (QImage may be built on any thread; QPixmap only on
the GUI thread, so the caches hold QImages). A request for something not yet loaded
returns None and schedules the load; :attr:`ready` fires with the path when it lands, and
views repaint then.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, QSize, QThreadPool, Signal
from PySide6.QtGui import QImage

from studio.ui.gui_tuning import lower_this_thread
from studio.ui.node_summary import PosterState

POSTER_SIZE = QSize(360, 216)
"""Posters are scaled to fit this at load (twice the card's poster box, for HiDPI)."""


FileMark = tuple[int, int, int] | None
"""A file as it was when it failed to load: (inode, size, mtime in ns), None if absent."""


def file_mark(path: str) -> FileMark:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


class _Signals(QObject):
    loaded = Signal(str, object, object)  # path, payload (or None on failure), its FileMark before


class _Job(QRunnable):
    def __init__(self, path: str, work: Callable[[str], object], signals: _Signals) -> None:
        super().__init__()
        self.path = path
        self.work = work
        self.signals = signals

    def run(self) -> None:
        lower_this_thread()  # background work: the GUI thread gets the cores first
        mark = file_mark(self.path)  # taken first: a file still being written then is tried again
        try:
            payload = self.work(self.path)
        except Exception:
            payload = None
        try:
            self.signals.loaded.emit(self.path, payload, mark)
        except RuntimeError:
            pass  # the cache was deleted while this ran (its window closed): nobody is waiting


def load_poster(path: str) -> QImage | None:
    """A poster scaled to :data:`POSTER_SIZE`. Decoded and scaled with Pillow, which lets go of
    the GIL while it works (Qt's image calls hold it), so the GUI thread isn't kept waiting."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as opened:
            opened.thumbnail((POSTER_SIZE.width(), POSTER_SIZE.height()), Image.Resampling.LANCZOS)
            picture = opened.convert("RGBA")
    except (OSError, UnidentifiedImageError, ValueError):
        return None
    width, height = picture.size
    data = picture.tobytes()
    image = QImage(data, width, height, 4 * width, QImage.Format.Format_RGBA8888)
    return image.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)  # a copy: ``data`` may go


def load_clip(path: str) -> tuple[list[QImage], float] | None:
    """A clip's frames as 32-bit images: they scale and paint several times faster than
    24-bit ones, which Qt would convert on the GUI thread at every paint. The widening is
    done by numpy, which lets go of the GIL while it copies; only the final copy into each
    QImage holds it."""
    import numpy as np

    from studio.storage.media import read_clip

    frames, fps = read_clip(Path(path))
    count, h, w, _ = frames.shape
    wide = np.empty((count, h, w, 4), dtype=np.uint8)
    wide[..., :3] = frames
    wide[..., 3] = 255
    images = [QImage(frame.data, w, h, 4 * w, QImage.Format.Format_RGBX8888).copy() for frame in wide]
    return images, fps


class _LoaderCache(QObject):
    ready = Signal(str)
    failed = Signal(str)

    def __init__(self, work: Callable[[str], object], capacity: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._work = work
        self._capacity = capacity
        self._items: OrderedDict[str, object] = OrderedDict()
        self._pending: set[str] = set()
        self._broken: dict[str, FileMark] = {}
        """Paths that failed to load, with their file as it was then: tried again once that
        changes (a clip regenerated, a file or the project folder put back)."""
        self._signals = _Signals(self)
        self._signals.loaded.connect(self._on_loaded)
        self.pool = QThreadPool.globalInstance()

    def peek(self, path: str) -> object | None:
        item = self._items.get(path)
        if item is not None:
            self._items.move_to_end(path)
        return item

    def request(self, path: str) -> object | None:
        """The cached value, or None after scheduling a load (``ready`` fires later)."""
        if not path:
            return None
        item = self.peek(path)
        if item is None and path not in self._pending and not self.is_broken(path):
            self._load(path)
        return item

    def _load(self, path: str) -> None:
        self._broken.pop(path, None)
        self._pending.add(path)
        self.pool.start(_Job(path, self._work, self._signals))

    def is_pending(self, path: str) -> bool:
        return path in self._pending

    def is_broken(self, path: str) -> bool:
        """Whether ``path`` failed to load (missing or unreadable) and its file is still as it
        was then; one that has changed since is loaded again at its next request."""
        return path in self._broken and file_mark(path) == self._broken[path]

    def retry_changed(self) -> int:
        """Load again each path that failed whose file has changed since (``ready`` or
        ``failed`` then fires for it, so views waiting on it repaint); returns how many.
        For when the window is back in front: a file may have been put back meanwhile."""
        changed = [path for path in self._broken if not self.is_broken(path) and path not in self._pending]
        for path in changed:
            self._load(path)
        return len(changed)

    def _on_loaded(self, path: str, payload: object, mark: FileMark) -> None:
        self._pending.discard(path)
        if payload is None:
            self._broken[path] = mark
            self.failed.emit(path)
            return
        self._items[path] = payload
        while len(self._items) > self._capacity:
            self._items.popitem(last=False)
        self.ready.emit(path)


class PosterCache(_LoaderCache):
    def __init__(self, parent: QObject | None = None, capacity: int = 600) -> None:
        super().__init__(load_poster, capacity, parent)

    def get(self, path: str) -> QImage | None:
        value = self.request(path)
        return value if isinstance(value, QImage) else None

    def state(self, rel: str, path: str) -> PosterState:
        """Where the poster stored as ``rel`` (resolved to ``path``, "" if refused) is: none
        to show, loading, or missing (its file gone, unreadable or outside the project)."""
        if not rel:
            return PosterState.NONE
        if not path or self.is_broken(path):
            return PosterState.MISSING
        return PosterState.LOADING


class ClipCache(_LoaderCache):
    """Decoded clips (frames and fps); a clip of 17 frames at 720x480 is about 23 MB."""

    def __init__(self, parent: QObject | None = None, capacity: int = 24) -> None:
        super().__init__(load_clip, capacity, parent)

    def get(self, path: str) -> tuple[list[QImage], float] | None:
        value = self.request(path)
        return value if isinstance(value, tuple) else None  # (frames, fps), as load_clip makes it
